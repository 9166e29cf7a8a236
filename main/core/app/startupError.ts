import { MirrorError } from '../mirror/mirrorError.ts';

/** What a shell was starting with, for the words of a failure. */
export interface StartupContext {
  db: string;
  port?: number;
}

/**
 * One plain line for a failure to start (no stack trace): what is wrong and what to do. The shells print
 * it and exit with a non-zero status.
 */
export function describeStartupError(error: unknown, context: StartupContext): string {
  const e = error as { code?: unknown; message?: unknown; syscall?: unknown; port?: unknown };
  const message = typeof e?.message === 'string' ? e.message.split('\n')[0]! : String(error);
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code === 'EADDRINUSE')
    return `Port ${context.port ?? '?'} on 127.0.0.1 is already in use: choose another with --port, or stop the program using it.`;
  if (code === 'EACCES' && e.syscall === 'listen')
    return `Not allowed to listen on port ${context.port ?? '?'}: choose a port above 1023 with --port.`;
  if (code === 'ERR_SOCKET_BAD_PORT')
    return `--port must be a number from 0 to 65535 (0 lets the system choose).`;
  if (error instanceof MirrorError && error.code === 'newer_schema')
    return `The mirror ${context.db} was written by a newer Authwatch (${message}): update Authwatch, or use another --db.`;
  if (code.startsWith('SQLITE_') || /database|SQLITE/i.test(message))
    return `Cannot open the mirror ${context.db}: ${message}. Check that it is an Authwatch mirror you may read and write, or use another --db.`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return `Cannot use ${context.db}: permission denied (${message}). Use a folder you may write, or another --db.`;
  if (code === 'ENOTDIR' || code === 'EISDIR')
    return `Cannot use ${context.db} as the mirror file: ${message}. Give a file path with --db.`;
  return message;
}
