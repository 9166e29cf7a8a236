/**
 * Migration runner of the service database.
 *
 * Migrations are the files `service/db/migrations/NNN_name.sql`, applied in file-name order, each once and
 * inside its own transaction. Applied file names are kept in the `schema_migrations` table (rather than a
 * single `PRAGMA user_version`), so a file added between two already-applied numbers still runs.
 * Numbering: 001 core (H4), 010_* users/domains (S1), 020_* hosted records (S2), 030_* analytics/scans (S3).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from 'better-sqlite3';

/** Directory holding the ordered `NNN_name.sql` files. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

const FILE_PATTERN = /^\d{3}_[a-z0-9_]+\.sql$/;

/** Applies every migration not applied yet; returns the names applied by this call. */
export function migrate(db: Database, dir: string = MIGRATIONS_DIR): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name TEXT PRIMARY KEY,
    applied_at TEXT NOT NULL
  )`);
  const applied = new Set(
    db
      .prepare<[], { name: string }>('SELECT name FROM schema_migrations')
      .all()
      .map((row) => row.name),
  );
  const files = readdirSync(dir)
    .filter((name) => FILE_PATTERN.test(name))
    .sort();
  const record = db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)');
  const done: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = readFileSync(`${dir}/${file}`, 'utf8');
    db.transaction(() => {
      db.exec(sql);
      record.run(file, new Date().toISOString());
    })();
    done.push(file);
  }
  return done;
}
