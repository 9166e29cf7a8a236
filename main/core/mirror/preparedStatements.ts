import type { Database, Statement } from 'better-sqlite3';

const byConnection = new WeakMap<Database, Map<string, Statement>>();

/**
 * The connection's prepared statement for `sql`, compiled on first use and reused after: better-sqlite3
 * statements are reusable, and compiling the same text on every write is most of a small write's cost.
 * Only for SQL texts drawn from a fixed set (no interpolated values), so the cache stays small. A cached
 * statement is shared by every caller of that SQL: use plain run/get/all, never switch its mode
 * (pluck/raw/expand) or hold an iterate() open.
 */
export function prepared(db: Database, sql: string): Statement {
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
  return statement;
}
