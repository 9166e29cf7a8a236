/** Opens (and migrates) the SQLite database of the reference service. */
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { migrate } from './migrate.ts';
import { cacheStatements } from './statementCache.ts';

export type ServiceDb = Db;

/**
 * Opens `file` (or an in-memory database for ':memory:'), with foreign keys on and WAL for files,
 * and applies pending migrations; its statements are prepared once per SQL text (statementCache.ts).
 */
export function openServiceDb(file: string): ServiceDb {
  const db = new Database(file);
  if (file !== ':memory:' && file !== '') {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return cacheStatements(db);
}
