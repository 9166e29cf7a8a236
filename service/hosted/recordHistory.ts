/**
 * The history of a hosted record (hosted_record_history, 020_hosted_records.sql): every change writes an
 * activity row (what was done, by whom) and a snapshot row (the record the service serves afterwards).
 * GET /domains/{id}/dmarc/history and /spf/history page through it, newest first.
 */
import type { Protocol } from '../../shared/email-auth/protocols.ts';
import { prepared } from '../../shared/sqlite/preparedStatements.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import type { AuthContext, ServiceContext } from '../http/operation.ts';
import type { PageParams } from '../http/pagination.ts';

/** One change to record. */
export interface RecordChange {
  domainId: number;
  protocol: Protocol;
  /** Stable label such as `policy.updated`, `include.added`. */
  action: string;
  description: string;
  /** The record served after the change (null: no record is served any more). */
  recordValue: string | null;
  /** SPF only: DNS lookups the served record needs. */
  lookupCount?: number | null;
  actor: string | null;
  now: Date;
}

/** A history row as the API shows it (schema RecordHistoryEntry). */
export interface RecordHistoryEntry {
  id: number;
  kind: 'activity' | 'snapshot';
  action: string | null;
  description: string | null;
  record_value: string | null;
  lookup_count?: number | null;
  actor: string | null;
  occurred_at: string;
}

/** Writes the activity and snapshot rows of one change. */
export function recordChange(db: ServiceDb, change: RecordChange): void {
  const insert = prepared(
    db,
    `INSERT INTO hosted_record_history
       (domain_id, protocol, kind, action, description, record_value, lookup_count, actor, occurred_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const at = change.now.toISOString();
  const lookups = change.lookupCount ?? null;
  db.transaction(() => {
    insert.run(
      change.domainId,
      change.protocol,
      'activity',
      change.action,
      change.description,
      change.recordValue,
      lookups,
      change.actor,
      at,
    );
    insert.run(
      change.domainId,
      change.protocol,
      'snapshot',
      change.action,
      change.recordValue === null ? 'No record is served.' : 'Record served after the change.',
      change.recordValue,
      lookups,
      null,
      at,
    );
  })();
}

/** What an operation says about its change; who made it and when come from the call. */
export interface ChangeNote {
  action: string;
  description: string;
  /** The record served after the change (null: none any more). */
  recordValue: string | null;
  /** SPF only. */
  lookupCount?: number | null;
}

/**
 * Runs `save` (the synchronous writes of one change to a hosted record: its rows, the zone) and records the
 * change `note` describes, in one transaction: a failure at either step leaves record, zone and history as
 * they were. The actor is the user behind `auth`, the time the service's now. `note` returns null when the
 * save changed nothing worth recording.
 */
export function saveRecorded<T>(
  ctx: ServiceContext,
  auth: AuthContext | null,
  target: { domainId: number; protocol: Protocol },
  save: () => T,
  note: (saved: T) => ChangeNote | null,
): T {
  return ctx.db.transaction(() => {
    const saved = save();
    const change = note(saved);
    if (change) {
      recordChange(ctx.db, { ...target, ...change, actor: actorOf(ctx.db, auth), now: ctx.clock() });
    }
    return saved;
  })();
}

/** One page of a record's history, newest first, and the total. */
export function listHistory(
  db: ServiceDb,
  domainId: number,
  protocol: Protocol,
  page: PageParams,
): { total: number; rows: RecordHistoryEntry[] } {
  const total =
    db
      .prepare<[number, string], { n: number }>(
        'SELECT COUNT(*) AS n FROM hosted_record_history WHERE domain_id = ? AND protocol = ?',
      )
      .get(domainId, protocol)?.n ?? 0;
  const rows = db
    .prepare<[number, string, number, number], RecordHistoryEntry>(
      `SELECT id, kind, action, description, record_value, lookup_count, actor, occurred_at
         FROM hosted_record_history WHERE domain_id = ? AND protocol = ?
        ORDER BY occurred_at DESC, id DESC LIMIT ? OFFSET ?`,
    )
    .all(domainId, protocol, page.limit, page.offset);
  return {
    total,
    rows: rows.map((r) => {
      // lookup_count means something for SPF only; other protocols leave it out.
      if (protocol === 'spf') return r;
      const { lookup_count: _unused, ...rest } = r;
      return rest;
    }),
  };
}

/** "Name <email>" of the user behind the token, for the history's actor column. */
export function actorOf(db: ServiceDb, auth: AuthContext | null): string | null {
  if (!auth) return null;
  const user = db
    .prepare<[number], { name: string; email: string }>('SELECT name, email FROM users WHERE id = ?')
    .get(auth.userId);
  return user ? `${user.name} <${user.email}>` : null;
}
