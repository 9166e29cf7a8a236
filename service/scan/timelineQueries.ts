/**
 * Reads of the DNS timeline (031_dns_timeline.sql) for the /domains/{id}/dns/* operations: filtered event
 * pages, the per-protocol summary and DMARC/SPF record snapshots.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import type { DateWindow } from '../http/dateWindow.ts';
import { PROTOCOLS, type Protocol } from '../../shared/email-auth/protocols.ts';
import type { Connection, DnsEventRow, RecordSnapshotRow } from './scanStore.ts';

/** Which events to read: a domain, a window and the optional record_type/action filters. */
export interface EventFilter {
  domainId: number;
  window: Pick<DateWindow, 'fromTimestamp' | 'toTimestamp'>;
  recordType?: Protocol;
  action?: Connection;
}

function eventWhere(f: EventFilter): { sql: string; args: Record<string, string | number> } {
  const clauses = ['domain_id = @domainId', 'occurred_at >= @from', 'occurred_at < @to'];
  const args: Record<string, string | number> = {
    domainId: f.domainId,
    from: f.window.fromTimestamp,
    to: f.window.toTimestamp,
  };
  if (f.recordType) {
    clauses.push('record_type = @recordType');
    args.recordType = f.recordType;
  }
  if (f.action) {
    clauses.push('action = @action');
    args.action = f.action;
  }
  return { sql: clauses.join(' AND '), args };
}

/** Number of events matching `f`. */
export function countEvents(db: ServiceDb, f: EventFilter): number {
  const { sql, args } = eventWhere(f);
  return db
    .prepare<typeof args, { n: number }>(`SELECT count(*) AS n FROM dns_events WHERE ${sql}`)
    .get(args)!.n;
}

/** Events matching `f`, newest first. */
export function listEvents(db: ServiceDb, f: EventFilter, limit: number, offset = 0): DnsEventRow[] {
  const { sql, args } = eventWhere(f);
  return db
    .prepare<Record<string, string | number>, DnsEventRow>(
      `SELECT * FROM dns_events WHERE ${sql} ORDER BY occurred_at DESC, id DESC LIMIT @limit OFFSET @offset`,
    )
    .all({ ...args, limit, offset });
}

/** The interface's event object. */
export function presentEvent(e: DnsEventRow): Record<string, unknown> {
  return {
    id: e.id,
    record_type: e.record_type,
    action: e.action,
    record_value: e.record_value,
    status_before: e.status_before,
    status_after: e.status_after,
    occurred_at: e.occurred_at,
  };
}

/** When each protocol last connected and disconnected (over all time; null when it never did). */
export function lastTransitions(
  db: ServiceDb,
  domainId: number,
): Record<Protocol, { last_connected: string | null; last_disconnected: string | null }> {
  const rows = db
    .prepare<[number], { record_type: Protocol; action: Connection; at: string }>(
      `SELECT record_type, action, max(occurred_at) AS at FROM dns_events WHERE domain_id = ?
       GROUP BY record_type, action`,
    )
    .all(domainId);
  const out = Object.fromEntries(
    PROTOCOLS.map((p) => [p, { last_connected: null, last_disconnected: null }]),
  ) as Record<Protocol, { last_connected: string | null; last_disconnected: string | null }>;
  for (const r of rows) {
    if (r.action === 'connected') out[r.record_type].last_connected = r.at;
    else out[r.record_type].last_disconnected = r.at;
  }
  return out;
}

/** One protocol of the timeline summary. */
export interface SummaryEntry {
  current_status: Connection;
  last_connected: string | null;
  last_disconnected: string | null;
  connection_count: number;
  disconnection_count: number;
}

/**
 * The summary keyed by all five protocols: current_status from the newest scan, last_connected and
 * last_disconnected over all time, connection/disconnection counts over the window (the filters of the
 * event list do not apply to it).
 */
export function timelineSummary(
  db: ServiceDb,
  domainId: number,
  window: EventFilter['window'],
  current: Record<Protocol, Connection>,
): Record<Protocol, SummaryEntry> {
  const counts = db
    .prepare<
      { domainId: number; from: string; to: string },
      { record_type: Protocol; action: Connection; n: number }
    >(
      `SELECT record_type, action, count(*) AS n FROM dns_events
       WHERE domain_id = @domainId AND occurred_at >= @from AND occurred_at < @to
       GROUP BY record_type, action`,
    )
    .all({ domainId, from: window.fromTimestamp, to: window.toTimestamp });
  const last = lastTransitions(db, domainId);
  const countOf = (p: Protocol, a: Connection) =>
    counts.find((c) => c.record_type === p && c.action === a)?.n ?? 0;
  return Object.fromEntries(
    PROTOCOLS.map((p) => [
      p,
      {
        current_status: current[p],
        ...last[p],
        connection_count: countOf(p, 'connected'),
        disconnection_count: countOf(p, 'disconnected'),
      },
    ]),
  ) as Record<Protocol, SummaryEntry>;
}

/** Which record snapshots to read. */
export interface SnapshotFilter {
  domainId: number;
  window: EventFilter['window'];
  /** dmarc, spf, or both when undefined. */
  recordType?: 'dmarc' | 'spf';
}

function snapshotWhere(f: SnapshotFilter) {
  const typeClause = f.recordType ? 'AND record_type = @recordType' : '';
  return {
    sql: `domain_id = @domainId AND occurred_at >= @from AND occurred_at < @to ${typeClause}`,
    args: {
      domainId: f.domainId,
      from: f.window.fromTimestamp,
      to: f.window.toTimestamp,
      ...(f.recordType ? { recordType: f.recordType } : {}),
    },
  };
}

/** Number of record snapshots matching `f`. */
export function countRecordSnapshots(db: ServiceDb, f: SnapshotFilter): number {
  const { sql, args } = snapshotWhere(f);
  return db
    .prepare<typeof args, { n: number }>(`SELECT count(*) AS n FROM dns_record_snapshots WHERE ${sql}`)
    .get(args)!.n;
}

/** Record snapshots matching `f`, oldest first (`order` asc) or newest first (desc). */
export function listRecordSnapshots(
  db: ServiceDb,
  f: SnapshotFilter,
  order: 'asc' | 'desc',
  limit: number,
  offset = 0,
): RecordSnapshotRow[] {
  const { sql, args } = snapshotWhere(f);
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  return db
    .prepare<Record<string, string | number>, RecordSnapshotRow>(
      `SELECT * FROM dns_record_snapshots WHERE ${sql}
       ORDER BY occurred_at ${dir}, id ${dir} LIMIT @limit OFFSET @offset`,
    )
    .all({ ...args, limit, offset });
}
