/**
 * Counts the transactions committed to a SQLite database in WAL mode by reading its -wal file: every commit
 * appends frames, and the last frame of a commit carries the database size after it (non-zero), the others
 * zero (sqlite.org/fileformat.html, "WAL File Format"). Frames left from before the WAL was restarted carry
 * other salts and are not counted. Read it before the connection closes (closing checkpoints and deletes
 * the file) and with no checkpoint in between (a checkpoint lets the next writer restart the WAL).
 */
import { existsSync, readFileSync } from 'node:fs';

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** Commits in `databaseFile`'s WAL now (0 when there is no WAL). */
export function walCommits(databaseFile: string): number {
  const wal = `${databaseFile}-wal`;
  if (!existsSync(wal)) return 0;
  const bytes = readFileSync(wal);
  if (bytes.length < WAL_HEADER) return 0;
  const pageSize = bytes.readUInt32BE(8);
  const salt1 = bytes.readUInt32BE(16);
  const salt2 = bytes.readUInt32BE(20);
  let commits = 0;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= bytes.length; at += FRAME_HEADER + pageSize) {
    if (bytes.readUInt32BE(at + 8) !== salt1 || bytes.readUInt32BE(at + 12) !== salt2) break;
    if (bytes.readUInt32BE(at + 4) !== 0) commits += 1;
  }
  return commits;
}
