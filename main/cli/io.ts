/** What a command may touch of the outside world; tests pass their own. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  stderr: { write(text: string): unknown };
  /** Resolves when the user asks to stop (Ctrl-C, SIGTERM); used by `sync --watch`. */
  interrupted: () => Promise<void>;
}

/** Raised by a command that ran but failed (exit status 1); the message goes to stderr. */
export class CommandFailed extends Error {
  override readonly name = 'CommandFailed';
}
