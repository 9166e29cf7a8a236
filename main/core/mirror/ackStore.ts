import type { Database } from 'better-sqlite3';
import type { OutboxEventType } from './deliveryTypes.ts';
import { insertOutbox, toldChannels } from './outboxRows.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/** One step of an alert's acknowledgement history: who acknowledged it (with a note) or took that back. */
export interface AckEntry {
  action: 'acknowledged' | 'unacknowledged';
  at: string;
  actor: string;
  note: string | null;
}

/** Acknowledgements with their notes (migration v17), and the updates they send. */
export class AckStore {
  constructor(private readonly db: Database) {}

  record(alertId: number, entry: AckEntry): void {
    prepared(
      this.db,
      'INSERT INTO alert_acks (alert_id, action, at, actor, note) VALUES (?, ?, ?, ?, ?)',
    ).run(alertId, entry.action, entry.at, entry.actor, entry.note);
  }

  /** The alert's acknowledgements and withdrawals, oldest first. */
  history(alertId: number): AckEntry[] {
    return prepared(
      this.db,
      'SELECT action, at, actor, note FROM alert_acks WHERE alert_id = ? ORDER BY id',
    ).all(alertId) as AckEntry[];
  }

  /** The latest acknowledgement still standing (none after a withdrawal), or null. */
  standing(alertId: number): AckEntry | null {
    const last = prepared(
      this.db,
      'SELECT action, at, actor, note FROM alert_acks WHERE alert_id = ? ORDER BY id DESC LIMIT 1',
    ).get(alertId) as AckEntry | undefined;
    return last?.action === 'acknowledged' ? last : null;
  }

  /** Takes an acknowledgement back: the alert is open and unacknowledged again (its cause still holds). */
  clear(alertId: number): boolean {
    return (
      prepared(
        this.db,
        `UPDATE alerts SET acknowledged_at = NULL,
             end_reason = CASE WHEN end_reason = 'acknowledged' THEN NULL ELSE end_reason END,
             ended_at = CASE WHEN end_reason = 'acknowledged' THEN NULL ELSE ended_at END
           WHERE id = ? AND acknowledged_at IS NOT NULL`,
      ).run(alertId).changes > 0
    );
  }

  /**
   * Queues an update about an alert for every channel that was told of it (a channel never told of the
   * alert hears nothing of its acknowledgement). One event id shared by those channels.
   */
  enqueueUpdate(alertId: number, type: OutboxEventType, at: string): number {
    return insertOutbox(this.db, alertId, type, toldChannels(this.db, alertId), at);
  }
}
