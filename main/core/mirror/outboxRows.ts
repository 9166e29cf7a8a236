import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { OutboxEventType } from './deliveryTypes.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/** The outbox events that tell a channel of an alert (it then hears of its updates and its end). */
export const ANNOUNCING = `('alert.raised', 'alert.escalated')`;

/** The channels that were told of an alert (raised or escalated to them). */
export function toldChannels(db: Database, alertId: number): number[] {
  return (
    prepared(db, `SELECT DISTINCT channel_id FROM outbox WHERE alert_id = ? AND type IN ${ANNOUNCING}`).all(
      alertId,
    ) as { channel_id: number }[]
  ).map((r) => r.channel_id);
}

/** Queues one event about an alert for these channels, under one event id; returns how many rows. */
export function insertOutbox(
  db: Database,
  alertId: number,
  type: OutboxEventType,
  channelIds: readonly number[],
  at: string,
): number {
  const insert = prepared(
    db,
    `INSERT OR IGNORE INTO outbox (event_id, channel_id, alert_id, type, created_at, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const eventId = randomUUID();
  for (const id of channelIds) insert.run(eventId, id, alertId, type, at, at);
  return channelIds.length;
}
