import type { Database } from 'better-sqlite3';
import type { DueNotice, NoticeState } from './escalation.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/** What escalation and repeat sent per alert and route (migration v19). */
export class NoticeStore {
  constructor(private readonly db: Database) {}

  state(alertId: number, routeId: number, kind: DueNotice['kind']): NoticeState | null {
    const row = prepared(
      this.db,
      'SELECT count, last_at AS lastAt FROM route_notices WHERE alert_id = ? AND route_id = ? AND kind = ?',
    ).get(alertId, routeId, kind) as NoticeState | undefined;
    return row ?? null;
  }

  record(alertId: number, notice: DueNotice, at: string): void {
    prepared(
      this.db,
      `INSERT INTO route_notices (alert_id, route_id, kind, count, last_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (alert_id, route_id, kind) DO UPDATE SET count = excluded.count, last_at = excluded.last_at`,
    ).run(alertId, notice.routeId, notice.kind, notice.count, at);
  }

  /**
   * Alerts escalation or repeat may concern: open, unacknowledged, not muted — only criticals when no route
   * repeats (escalation is for criticals).
   */
  candidates(criticalOnly: boolean): number[] {
    return (
      prepared(
        this.db,
        `SELECT id FROM alerts WHERE resolved_at IS NULL AND acknowledged_at IS NULL AND suppressed IS NULL
           AND (? = 0 OR severity = 'critical') ORDER BY id`,
      ).all(criticalOnly ? 1 : 0) as { id: number }[]
    ).map((r) => r.id);
  }
}
