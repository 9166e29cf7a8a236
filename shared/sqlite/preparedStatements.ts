/**
 * Statements prepared once per connection and SQL text, for the engine's mirror (main/core/mirror) and the
 * reference service (service/) alike: compiling a statement costs more than running it, so a mirror write
 * or an ingested report that prepared its SQL every time spent most of its time there.
 *
 * Why under shared/: it is the one place both sides may import (main → shared, service → shared), and both
 * use better-sqlite3. Only Node code imports it — never the renderer — and it imports better-sqlite3's types
 * alone, so nothing here loads the native module.
 *
 * Only for SQL texts drawn from a fixed set (no interpolated values), so a cache stays small. A cached
 * statement is shared by every caller of that SQL: use plain run/get/all, never switch its mode
 * (pluck/raw/expand) or hold an iterate() open.
 */
import type { Database, Statement } from 'better-sqlite3';

const byConnection = new WeakMap<Database, Map<string, Statement<unknown[] | object, unknown>>>();

/** `db.prepare(sql)`, compiled on the first call for this connection and reused after. */
export function prepared<P extends unknown[] | object = unknown[], R = unknown>(
  db: Database,
  sql: string,
): Statement<P, R> {
  let statements = byConnection.get(db);
  if (!statements) {
    statements = new Map();
    byConnection.set(db, statements);
  }
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement as Statement<P, R>;
}
