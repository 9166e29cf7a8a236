import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Severity } from '../alerts/types.ts';
import type { AlertStore } from './alertStore.ts';
import type {
  Channel,
  ChannelConfig,
  ChannelInput,
  DeliveryStore,
  FailingChannel,
  OutboxEventType,
  OpenDelivered,
  OutboxRow,
} from './deliveryTypes.ts';
import { MirrorError } from './mirrorError.ts';
import { ANNOUNCING } from './outboxRows.ts';
import { silenceNoteOf } from './silenceNotices.ts';
import type { Alert, WriteResult } from './types.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

interface ChannelRow {
  id: number;
  name: string;
  kind: Channel['kind'];
  min_severity: Severity;
  account_id: number | null;
  hold_criticals: number;
  config_json: string;
  created_at: string;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  queued: number;
}

interface OutboxDbRow {
  id: number;
  event_id: string;
  channel_id: number;
  alert_id: number;
  type: OutboxEventType;
  created_at: string;
  batch_id: string | null;
  attempts: number;
  next_attempt_at: string;
  group_wait_seconds: number | null;
  label: string;
}

const CHANNEL_SELECT = `SELECT c.*, (SELECT count(*) FROM outbox o WHERE o.channel_id = c.id
    AND o.delivered_at IS NULL) AS queued FROM channels c`;

function toChannel(row: ChannelRow): Channel {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    minSeverity: row.min_severity,
    accountId: row.account_id,
    holdCriticals: row.hold_criticals === 1,
    config: JSON.parse(row.config_json) as ChannelConfig,
    createdAt: row.created_at,
    lastSuccessAt: row.last_success_at,
    lastError: row.last_error,
    lastErrorAt: row.last_error_at,
    queued: row.queued,
  };
}

/** Where an alert goes: the channels, and per channel the group wait of the route that sends it there. */
interface Recipients {
  channels: Channel[];
  groupWait: ReadonlyMap<number, number | null>;
}

/** The acknowledgement an update row announces: the latest made by the time it was queued. */
function ackAt(db: Database, alertId: number, at: string): OutboxRow['ack'] {
  const row = prepared(
    db,
    `SELECT actor AS by, at, note FROM alert_acks WHERE alert_id = ? AND action = 'acknowledged' AND at <= ?
       ORDER BY id DESC LIMIT 1`,
  ).get(alertId, at) as OutboxRow['ack'];
  return row ?? undefined;
}

/** The mirror's channels and outbox (see migration v5). */
export class SqliteDeliveryStore implements DeliveryStore {
  constructor(
    private readonly db: Database,
    private readonly alerts: AlertStore,
    private readonly nowIso: () => string,
    /** The channels an alert goes to (the routing table and each channel's own floor), each with its route's group wait. */
    private readonly recipients: (alert: Alert, channels: Channel[]) => Recipients,
  ) {}

  /**
   * Called inside the alert write's transaction: one outbox row per event and matching channel. Alerts
   * raised while their domain is muted are not sent; a notice born resolved (a protocol connected again)
   * is not sent either — the resolved message of its disconnection says the same, once.
   */
  enqueue(result: WriteResult, at: string): void {
    const channels = this.listChannels();
    if (channels.length === 0) return;
    const insert = prepared(
      this.db,
      `INSERT OR IGNORE INTO outbox (event_id, channel_id, alert_id, type, created_at, next_attempt_at,
         group_wait_seconds) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const add = (alert: Alert, type: OutboxEventType) => {
      if (alert.suppressed !== null || alert.endReason === 'notice') return;
      const eventId = randomUUID();
      const { channels: to, groupWait } = this.recipients(alert, channels);
      for (const channel of to)
        insert.run(eventId, channel.id, alert.id, type, at, at, groupWait.get(channel.id) ?? null);
    };
    for (const alert of result.alerts) add(alert, 'alert.raised');
    for (const alert of result.resolved) {
      // Only what was announced is resolved: a channel never told of the alert gets no "resolved".
      const announced = prepared(
        this.db,
        `SELECT DISTINCT channel_id FROM outbox WHERE alert_id = ? AND type IN ${ANNOUNCING}`,
      ).all(alert.id) as { channel_id: number }[];
      if (announced.length === 0) continue;
      const eventId = randomUUID();
      for (const { channel_id } of announced)
        insert.run(eventId, channel_id, alert.id, 'alert.resolved', at, at, null);
    }
  }

  listChannels(): Channel[] {
    return (prepared(this.db, `${CHANNEL_SELECT} ORDER BY c.name`).all() as ChannelRow[]).map(toChannel);
  }

  getChannel(id: number): Channel | null {
    const row = prepared(this.db, `${CHANNEL_SELECT} WHERE c.id = ?`).get(id) as ChannelRow | undefined;
    return row ? toChannel(row) : null;
  }

  findChannel(name: string): Channel | null {
    const row = prepared(this.db, `${CHANNEL_SELECT} WHERE c.name = ?`).get(name) as ChannelRow | undefined;
    return row ? toChannel(row) : null;
  }

  addChannel(input: ChannelInput): Channel {
    if (this.findChannel(input.name))
      throw new MirrorError('invalid_input', `a channel named “${input.name}” exists already`);
    const id = prepared(
      this.db,
      `INSERT INTO channels (name, kind, min_severity, account_id, hold_criticals, config_json, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      input.name,
      input.config.kind,
      input.minSeverity,
      input.accountId,
      input.holdCriticals ? 1 : 0,
      JSON.stringify(input.config),
      this.nowIso(),
    ).lastInsertRowid;
    return this.getChannel(Number(id))!;
  }

  updateChannel(id: number, input: ChannelInput): Channel {
    const other = this.findChannel(input.name);
    if (other && other.id !== id)
      throw new MirrorError('invalid_input', `a channel named “${input.name}” exists already`);
    const changes = prepared(
      this.db,
      `UPDATE channels SET name = ?, kind = ?, min_severity = ?, account_id = ?, hold_criticals = ?,
           config_json = ? WHERE id = ?`,
    ).run(
      input.name,
      input.config.kind,
      input.minSeverity,
      input.accountId,
      input.holdCriticals ? 1 : 0,
      JSON.stringify(input.config),
      id,
    ).changes;
    if (changes === 0) throw new MirrorError('invalid_input', `no channel ${id}`);
    return this.getChannel(id)!;
  }

  removeChannel(id: number): boolean {
    return prepared(this.db, 'DELETE FROM channels WHERE id = ?').run(id).changes > 0;
  }

  due(channelId: number, now: string): OutboxRow[] {
    const rows = prepared(
      this.db,
      `SELECT o.*, ac.label FROM outbox o JOIN alerts a ON a.id = o.alert_id
         JOIN accounts ac ON ac.id = a.account_id
         WHERE o.channel_id = ? AND o.delivered_at IS NULL AND o.next_attempt_at <= ?
         ORDER BY o.id`,
    ).all(channelId, now) as OutboxDbRow[];
    const out: OutboxRow[] = [];
    for (const r of rows) {
      const alert = this.alerts.get(r.alert_id);
      if (!alert) continue;
      const ack = r.type === 'alert.acknowledged' ? ackAt(this.db, r.alert_id, r.created_at) : undefined;
      const silence = r.type === 'alert.silenced' ? silenceNoteOf(this.db, r.alert_id) : undefined;
      out.push({
        ...(ack ? { ack } : {}),
        ...(silence ? { silence } : {}),
        id: r.id,
        eventId: r.event_id,
        channelId: r.channel_id,
        type: r.type,
        createdAt: r.created_at,
        batchId: r.batch_id,
        attempts: r.attempts,
        nextAttemptAt: r.next_attempt_at,
        groupWaitSeconds: r.group_wait_seconds,
        alert,
        accountLabel: r.label,
      });
    }
    return out;
  }

  assignBatch(rowIds: number[], batchId: string): void {
    const stmt = prepared(this.db, 'UPDATE outbox SET batch_id = ? WHERE id = ? AND batch_id IS NULL');
    this.db.transaction(() => {
      for (const id of rowIds) stmt.run(batchId, id);
    })();
  }

  markDelivered(rowIds: number[], at: string): void {
    const stmt = prepared(
      this.db,
      'UPDATE outbox SET delivered_at = ?, last_error = NULL WHERE id = ? AND delivered_at IS NULL',
    );
    this.db.transaction(() => {
      for (const id of rowIds) stmt.run(at, id);
    })();
  }

  markFailed(rowIds: number[], error: string, _at: string, nextAt: string): void {
    const stmt = prepared(
      this.db,
      `UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?
         WHERE id = ? AND delivered_at IS NULL`,
    );
    this.db.transaction(() => {
      for (const id of rowIds) stmt.run(error, nextAt, id);
    })();
  }

  noteChannelResult(channelId: number, at: string, error: string | null): void {
    if (error === null)
      prepared(this.db, 'UPDATE channels SET last_success_at = ?, last_error = NULL WHERE id = ?').run(
        at,
        channelId,
      );
    else
      prepared(this.db, 'UPDATE channels SET last_error = ?, last_error_at = ? WHERE id = ?').run(
        error,
        at,
        channelId,
      );
  }

  openDelivered(channelId: number): OpenDelivered[] {
    const rows = prepared(
      this.db,
      `SELECT o.alert_id, o.event_id, ac.label FROM outbox o JOIN alerts a ON a.id = o.alert_id
         JOIN accounts ac ON ac.id = a.account_id
         WHERE o.id IN (SELECT min(id) FROM outbox WHERE channel_id = ? AND type IN ${ANNOUNCING}
             AND delivered_at IS NOT NULL GROUP BY alert_id)
           AND a.resolved_at IS NULL ORDER BY o.id`,
    ).all(channelId) as { alert_id: number; event_id: string; label: string }[];
    const out: OpenDelivered[] = [];
    for (const r of rows) {
      const alert = this.alerts.get(r.alert_id);
      if (!alert) continue;
      // An acknowledged alert keeps its who and note (Alertmanager's annotations are replaced at each post).
      const ack = alert.acknowledgedAt ? ackAt(this.db, alert.id, '9999') : undefined;
      out.push({ alert, eventId: r.event_id, accountLabel: r.label, ...(ack ? { ack } : {}) });
    }
    return out;
  }

  failingChannels(): FailingChannel[] {
    const rows = prepared(
      this.db,
      `SELECT c.id, c.name, c.account_id, c.last_error, c.last_error_at, c.last_success_at,
          min(o.created_at) AS oldest, count(*) AS waiting
         FROM channels c JOIN outbox o ON o.channel_id = c.id AND o.delivered_at IS NULL AND o.attempts > 0
         WHERE c.last_error IS NOT NULL AND c.last_error_at IS NOT NULL
         GROUP BY c.id ORDER BY c.id`,
    ).all() as {
      id: number;
      name: string;
      account_id: number | null;
      last_error: string;
      last_error_at: string;
      last_success_at: string | null;
      oldest: string;
      waiting: number;
    }[];
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      accountId: r.account_id,
      // A row queued before the last success waited out a backoff; the failing began after that success.
      failingSince: r.last_success_at && r.last_success_at > r.oldest ? r.last_success_at : r.oldest,
      lastError: r.last_error,
      lastErrorAt: r.last_error_at,
      waiting: r.waiting,
    }));
  }

  nextAttemptAt(): string | null {
    const row = prepared(
      this.db,
      'SELECT min(next_attempt_at) AS v FROM outbox WHERE delivered_at IS NULL',
    ).get() as { v: string | null };
    return row.v;
  }
}
