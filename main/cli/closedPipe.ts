/** Where a command writes its output: the CliIo side of process.stdout / process.stderr. */
export interface OutputSink {
  write(text: string): unknown;
  /** Whether it is a terminal (export data is filtered only then). */
  readonly isTTY?: boolean;
}

/**
 * Wraps a standard stream so that a reader going away (`authwatch status | head -1`) ends the output
 * quietly, as Unix tools do: EPIPE marks the stream closed and later writes are dropped, instead of an
 * unhandled 'error' event killing the process with a stack trace. Any other write error also closes the
 * stream; it is reported once through `report` and makes the exit status 1.
 */
export function endOutputOnClosedPipe(
  stream: NodeJS.WritableStream,
  report: (message: string) => void,
): OutputSink {
  let closed = false;
  const close = (error: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    if (error.code === 'EPIPE') return;
    process.exitCode = 1;
    report(`authwatch: cannot write output: ${error.message}\n`);
  };
  stream.on('error', close);
  return {
    isTTY: (stream as { isTTY?: boolean }).isTTY === true,
    write(text) {
      if (closed) return false;
      try {
        return stream.write(text);
      } catch (error) {
        close(error as NodeJS.ErrnoException);
        return false;
      }
    },
  };
}
