import type { Database } from 'better-sqlite3';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/** One thing an edit changed: a field (a record tag, a member's role…) from its value before to after. */
export interface FieldChange {
  /** The request field or record tag ("p", "role", "record", "mode"). */
  field: string;
  /** The value before the edit; null when there was none (a record created). */
  before: string | null;
  /** The value after; null when it was removed. */
  after: string | null;
}

/** What one of the app's edits changed, by the request id the audit log keeps. */
export interface JournalEntry {
  requestId: string;
  operation: string;
  changedAt: string;
  changes: FieldChange[];
}

/** A year of edits is kept: the audit log's entries older than that show the request without before → after. */
const KEPT_MS = 366 * 24 * 3_600_000;

/** The change journal (mirror v9): written by the facade's edit method, read by the audit page. */
export class ChangeJournal {
  constructor(private readonly db: Database) {}

  /** Keep what an edit changed (a second write for the same request replaces the first). */
  record(accountId: number, entry: JournalEntry): void {
    this.db.transaction(() => {
      prepared(this.db, 'DELETE FROM change_journal WHERE changed_at < ?').run(
        new Date(Date.parse(entry.changedAt) - KEPT_MS).toISOString(),
      );
      prepared(
        this.db,
        `INSERT INTO change_journal (account_id, request_id, operation, changed_at, changes_json)
           VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (account_id, request_id) DO UPDATE SET operation = excluded.operation,
             changed_at = excluded.changed_at, changes_json = excluded.changes_json`,
      ).run(accountId, entry.requestId, entry.operation, entry.changedAt, JSON.stringify(entry.changes));
    })();
  }

  /** The entries of these request ids that the journal holds. */
  find(accountId: number, requestIds: readonly string[]): JournalEntry[] {
    const found: JournalEntry[] = [];
    const read = prepared(
      this.db,
      `SELECT request_id, operation, changed_at, changes_json FROM change_journal
         WHERE account_id = ? AND request_id = ?`,
    );
    for (const id of new Set(requestIds)) {
      const row = read.get(accountId, id) as
        { request_id: string; operation: string; changed_at: string; changes_json: string } | undefined;
      if (row)
        found.push({
          requestId: row.request_id,
          operation: row.operation,
          changedAt: row.changed_at,
          changes: JSON.parse(row.changes_json) as FieldChange[],
        });
    }
    return found;
  }
}
