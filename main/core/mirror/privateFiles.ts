import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** Owner read/write only: the mirror holds a team's whole posture. */
const FILE_MODE = 0o600;
/** Owner only, for the folders we create to hold it. */
const FOLDER_MODE = 0o700;
/** SQLite's companions of a database file (write-ahead log, shared memory, rollback journal). */
const COMPANIONS = ['-wal', '-shm', '-journal'];

/**
 * Makes `file` ready to be opened as a private database: missing folders are created 700 (an existing
 * folder is the user's choice and left as it is), the file is created 600 before SQLite opens it — SQLite
 * gives its WAL and shared-memory files the database file's mode — and an existing mirror or companion
 * readable by others is narrowed to 600.
 */
export function preparePrivateDatabaseFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: FOLDER_MODE });
  if (!existsSync(file)) closeSync(openSync(file, 'a', FILE_MODE));
  for (const path of [file, ...COMPANIONS.map((suffix) => file + suffix)]) {
    if (existsSync(path) && (statSync(path).mode & 0o077) !== 0) chmodSync(path, FILE_MODE);
  }
}
