/**
 * Statements prepared once per database and SQL text, for the ones run once per ingested report: a bulk load
 * (the demo seed's 90 days) ingests thousands of reports, and preparing a statement costs more than running
 * it. A cached statement is shared by every caller of the same SQL, so use it with plain run/get/all only:
 * never switch its mode (pluck/raw/expand) or hold an iterate() open.
 */
import type { Statement } from 'better-sqlite3';
import type { ServiceDb } from './openServiceDb.ts';

const prepared = new WeakMap<ServiceDb, Map<string, Statement<unknown[] | object, unknown>>>();

/** `db.prepare(sql)`, prepared on the first call for this database and reused after. */
export function preparedStatement<P extends unknown[] | object = unknown[], R = unknown>(
  db: ServiceDb,
  sql: string,
): Statement<P, R> {
  let statements = prepared.get(db);
  if (!statements) {
    statements = new Map();
    prepared.set(db, statements);
  }
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement as Statement<P, R>;
}
