import type { Database } from 'better-sqlite3';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/** A panel answer kept for offline review. */
export interface StoredPanel {
  fetchedAt: string;
  payload: unknown;
}

/** On-demand panels (see shared/bridge/panels.ts), one row per account and request. */
export class PanelStore {
  constructor(private readonly db: Database) {}

  /** The stored answer of a request, or null. */
  get(accountId: number, requestKey: string): StoredPanel | null {
    const row = prepared(
      this.db,
      'SELECT fetched_at, payload_json FROM panel_cache WHERE account_id = ? AND request_key = ?',
    ).get(accountId, requestKey) as { fetched_at: string; payload_json: string } | undefined;
    return row ? { fetchedAt: row.fetched_at, payload: JSON.parse(row.payload_json) as unknown } : null;
  }

  /** Keep (or replace) the answer of a request. */
  put(input: {
    accountId: number;
    requestKey: string;
    panel: string;
    domainId: number | null;
    fetchedAt: string;
    payload: unknown;
  }): void {
    prepared(
      this.db,
      `INSERT INTO panel_cache (account_id, request_key, panel, domain_id, fetched_at, payload_json)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, request_key) DO UPDATE SET
           fetched_at = excluded.fetched_at, payload_json = excluded.payload_json`,
    ).run(
      input.accountId,
      input.requestKey,
      input.panel,
      input.domainId,
      input.fetchedAt,
      JSON.stringify(input.payload ?? null),
    );
  }

  /** Every kept answer of a panel for the account (and domain, when given), newest first. */
  named(accountId: number, panel: string, domainId: number | null): StoredPanel[] {
    const rows = prepared(
      this.db,
      `SELECT fetched_at, payload_json FROM panel_cache
         WHERE account_id = ? AND panel = ? AND (? IS NULL OR domain_id = ?)
         ORDER BY fetched_at DESC LIMIT 50`,
    ).all(accountId, panel, domainId, domainId) as { fetched_at: string; payload_json: string }[];
    return rows.map((r) => ({ fetchedAt: r.fetched_at, payload: JSON.parse(r.payload_json) as unknown }));
  }
}
