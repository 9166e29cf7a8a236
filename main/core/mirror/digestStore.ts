import type { Database } from 'better-sqlite3';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';
import { MirrorError } from './mirrorError.ts';

/** An account's weekly digest: when (a weekday and time in a zone), by which email channel, and its state. */
export interface DigestSchedule {
  accountId: number;
  channelId: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  hour: number;
  minute: number;
  timeZone: string;
  /** When the schedule was set: slots at or before it are not owed. */
  since: string;
  /** The newest slot whose digest was delivered. */
  lastSlot: string | null;
  lastSentAt: string | null;
  /** Failed attempts at the slot now owed; the next one not before nextAttemptAt. */
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

/** What the user chooses. */
export interface DigestScheduleInput {
  accountId: number;
  channelId: number;
  weekday: number;
  hour: number;
  minute: number;
  timeZone: string;
}

/** The weekly digest schedules in the mirror (migration v9). Each method is one statement. */
export interface DigestStore {
  list(): DigestSchedule[];
  get(accountId: number): DigestSchedule | null;
  /**
   * Sets an account's schedule. A changed day, time or zone owes only slots from now on; what was delivered
   * (lastSlot) is kept, so a schedule moved within a week does not send that week twice.
   */
  set(input: DigestScheduleInput, at: string): DigestSchedule;
  remove(accountId: number): boolean;
  /** The digest of `slot` was delivered: never sent again. */
  markSent(accountId: number, slot: string, at: string): void;
  /** The attempt failed: the error in words, retried at nextAt. */
  markFailed(accountId: number, error: string, at: string, nextAt: string): void;
}

interface Row {
  account_id: number;
  channel_id: number;
  weekday: number;
  hour: number;
  minute: number;
  time_zone: string;
  since: string;
  last_slot: string | null;
  last_sent_at: string | null;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
}

function toSchedule(r: Row): DigestSchedule {
  return {
    accountId: r.account_id,
    channelId: r.channel_id,
    weekday: r.weekday,
    hour: r.hour,
    minute: r.minute,
    timeZone: r.time_zone,
    since: r.since,
    lastSlot: r.last_slot,
    lastSentAt: r.last_sent_at,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    lastErrorAt: r.last_error_at,
  };
}

export class SqliteDigestStore implements DigestStore {
  constructor(private readonly db: Database) {}

  list(): DigestSchedule[] {
    return (prepared(this.db, 'SELECT * FROM digest_schedules ORDER BY account_id').all() as Row[]).map(
      toSchedule,
    );
  }

  get(accountId: number): DigestSchedule | null {
    const row = prepared(this.db, 'SELECT * FROM digest_schedules WHERE account_id = ?').get(accountId) as
      Row | undefined;
    return row ? toSchedule(row) : null;
  }

  set(input: DigestScheduleInput, at: string): DigestSchedule {
    const channel = prepared(this.db, 'SELECT kind FROM channels WHERE id = ?').get(input.channelId) as
      { kind: string } | undefined;
    if (!channel) throw new MirrorError('invalid_input', `no channel ${input.channelId}`);
    if (channel.kind !== 'email')
      throw new MirrorError('invalid_input', 'the weekly digest goes by an email channel');
    const v = input;
    this.db.transaction(() => {
      const old = this.get(v.accountId);
      const sameTime =
        old !== null &&
        old.weekday === v.weekday &&
        old.hour === v.hour &&
        old.minute === v.minute &&
        old.timeZone === v.timeZone;
      prepared(
        this.db,
        `INSERT INTO digest_schedules (account_id, channel_id, weekday, hour, minute, time_zone, since)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id) DO UPDATE SET channel_id = excluded.channel_id, weekday = excluded.weekday,
           hour = excluded.hour, minute = excluded.minute, time_zone = excluded.time_zone,
           since = CASE WHEN ? THEN since ELSE excluded.since END,
           attempts = 0, next_attempt_at = NULL, last_error = NULL, last_error_at = NULL`,
      ).run(v.accountId, v.channelId, v.weekday, v.hour, v.minute, v.timeZone, at, sameTime ? 1 : 0);
    })();
    return this.get(v.accountId)!;
  }

  remove(accountId: number): boolean {
    return prepared(this.db, 'DELETE FROM digest_schedules WHERE account_id = ?').run(accountId).changes > 0;
  }

  markSent(accountId: number, slot: string, at: string): void {
    prepared(
      this.db,
      `UPDATE digest_schedules SET last_slot = ?, last_sent_at = ?, attempts = 0, next_attempt_at = NULL,
         last_error = NULL, last_error_at = NULL WHERE account_id = ?`,
    ).run(slot, at, accountId);
  }

  markFailed(accountId: number, error: string, at: string, nextAt: string): void {
    prepared(
      this.db,
      `UPDATE digest_schedules SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?,
         last_error_at = ? WHERE account_id = ?`,
    ).run(nextAt, error, at, accountId);
  }
}
