import type { Database } from 'better-sqlite3';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/**
 * The generic per-domain store of "extra" signals (mirror table extra_signal_values, migration v11): one JSON
 * value per read, keyed by signal name, so a signal whose value is a small document is added by its
 * definition alone — no table, no migration. Only the newest EXTRA_HISTORY values per domain and signal are
 * kept: enough for a rule to compare the value before a read with the one after, never a growing table.
 */
export const EXTRA_HISTORY = 5;

/** One stored value of an extra signal. */
export interface ExtraSignalValue {
  signal: string;
  fetchedAt: string;
  value: unknown;
}

/** Stores a value read at `fetchedAt` and drops that signal's values beyond the newest EXTRA_HISTORY. */
export function storeExtraValue(
  db: Database,
  domainPk: number,
  signal: string,
  fetchedAt: string,
  value: unknown,
): void {
  prepared(
    db,
    `INSERT INTO extra_signal_values (domain_id, signal, fetched_at, value_json) VALUES (?, ?, ?, ?)
     ON CONFLICT (domain_id, signal, fetched_at) DO UPDATE SET value_json = excluded.value_json`,
  ).run(domainPk, signal, fetchedAt, JSON.stringify(value));
  prepared(
    db,
    `DELETE FROM extra_signal_values WHERE domain_id = ? AND signal = ? AND fetched_at NOT IN (
       SELECT fetched_at FROM extra_signal_values WHERE domain_id = ? AND signal = ?
       ORDER BY fetched_at DESC LIMIT ${EXTRA_HISTORY})`,
  ).run(domainPk, signal, domainPk, signal);
}

/** The domain's values of one signal, newest first (at most EXTRA_HISTORY). */
export function extraValues(db: Database, domainPk: number, signal: string): ExtraSignalValue[] {
  const rows = prepared(
    db,
    `SELECT signal, fetched_at, value_json FROM extra_signal_values WHERE domain_id = ? AND signal = ?
     ORDER BY fetched_at DESC`,
  ).all(domainPk, signal) as { signal: string; fetched_at: string; value_json: string }[];
  return rows.map((r) => ({
    signal: r.signal,
    fetchedAt: r.fetched_at,
    value: JSON.parse(r.value_json) as unknown,
  }));
}

/** The newest value of every extra signal the domain has, by signal name. */
export function latestExtraValues(db: Database, domainPk: number): ExtraSignalValue[] {
  const rows = prepared(
    db,
    `SELECT signal, MAX(fetched_at) AS fetched_at, value_json FROM extra_signal_values WHERE domain_id = ?
     GROUP BY signal ORDER BY signal`,
  ).all(domainPk) as { signal: string; fetched_at: string; value_json: string }[];
  return rows.map((r) => ({
    signal: r.signal,
    fetchedAt: r.fetched_at,
    value: JSON.parse(r.value_json) as unknown,
  }));
}
