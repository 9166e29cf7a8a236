import type { Database } from 'better-sqlite3';
import type { RowTarget } from '../signals/definition.ts';
import type { DnsEvent } from '../signals/dnsTimeline.ts';
import type { HealthHistoryRow, HealthSnapshot } from '../signals/health.ts';
import type { SendingSource } from '../signals/sendingSources.ts';
import { toIso } from './isoTime.ts';
import { recordSenderPoll } from './senderHistory.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

// Row helpers the signals' store steps share (signals/defs/*): each signal stores its own rows.

/** A value as the JSON text kept in raw_json columns. */
export const json = (value: unknown): string => JSON.stringify(value);
/** An optional value as a nullable column. */
export const orNull = <T>(value: T | null | undefined): T | null => value ?? null;
/** An optional timestamp normalised to ISO, or null. */
export const isoOrNull = (value: string | null | undefined): string | null => (value ? toIso(value) : null);
/** An optional boolean as SQLite's 0/1, or null. */
export const bool = (value: boolean | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

/** The health_snapshots row of a snapshot or history row. */
export function healthRow(row: HealthSnapshot | HealthHistoryRow, target: RowTarget) {
  return {
    domain_id: target.domainPk,
    // A live fallback snapshot may carry no scan time: it is keyed by when we fetched it.
    scanned_at: row.scanned_at ? toIso(row.scanned_at) : target.fetchedAt,
    remote_id: 'id' in row ? orNull(row.id) : null,
    source: 'source' in row ? orNull(row.source) : null,
    result: orNull(row.result),
    mail_provider: orNull(row.mail_provider),
    protocols_json: json(row.protocols),
    protocols_passing: orNull(row.protocols_passing),
    total_protocols: orNull(row.total_protocols),
    dmarc_record: 'dmarc_record' in row ? orNull(row.dmarc_record) : null,
    raw_json: json(row),
    fetched_at: target.fetchedAt,
  };
}

/** The health_snapshots insert (the caller adds its ON CONFLICT clause). */
export const HEALTH_INSERT = `INSERT INTO health_snapshots (domain_id, scanned_at, remote_id, source, result, mail_provider,
  protocols_json, protocols_passing, total_protocols, dmarc_record, raw_json, fetched_at)
  VALUES (@domain_id, @scanned_at, @remote_id, @source, @result, @mail_provider, @protocols_json,
  @protocols_passing, @total_protocols, @dmarc_record, @raw_json, @fetched_at)`;

/** Stores one window's answer of sending-services or failed-sources (and the senders' poll history). */
export function writeSources(
  db: Database,
  kind: 'failed' | 'sending',
  envelope: Record<string, unknown>,
  sources: SendingSource[],
  target: RowTarget,
): void {
  const { domainPk, window } = target;
  // The answer for a window replaces the previous answer for that window as a whole.
  prepared(
    db,
    'DELETE FROM source_windows WHERE domain_id = ? AND kind = ? AND window_start = ? AND window_end = ?',
  ).run(domainPk, kind, window.start, window.end);
  prepared(
    db,
    `INSERT INTO source_windows (domain_id, kind, window_start, window_end, raw_json, fetched_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(domainPk, kind, window.start, window.end, json(envelope), target.fetchedAt);
  const insert = prepared(
    db,
    `INSERT INTO source_entries (domain_id, kind, window_start, window_end, position, source_name, total_count,
       dmarc_pass, dmarc_fail, compliance, status, is_registered_threat, raw_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  recordSenderPoll(db, domainPk, kind, sources, target.fetchedAt, window);
  sources.forEach((s, position) => {
    insert.run(
      domainPk,
      kind,
      window.start,
      window.end,
      position,
      s.source_name,
      orNull(s.total_count),
      orNull(s.dmarc?.pass),
      orNull(s.dmarc?.fail),
      orNull(s.compliance),
      orNull(s.status),
      s.is_registered_threat === true ? 1 : 0,
      json(s),
    );
  });
}

/** Stores DNS events (immutable; the remote id dedupes them across overlapping fetches). */
export function writeDnsEvents(db: Database, events: DnsEvent[], target: RowTarget): void {
  // Events are immutable facts: the remote id dedupes them across overlapping fetches.
  const insert = prepared(
    db,
    `INSERT INTO dns_events (domain_id, remote_id, record_type, action, record_value, status_before, status_after,
       occurred_at, raw_json, fetched_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (domain_id, remote_id) DO NOTHING`,
  );
  for (const e of events) {
    insert.run(
      target.domainPk,
      e.id,
      e.record_type,
      e.action,
      orNull(e.record_value),
      orNull(e.status_before),
      orNull(e.status_after),
      toIso(e.occurred_at),
      json(e),
      target.fetchedAt,
    );
  }
}

/** The answer's envelope without its list. */
export function withoutKey(payload: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = payload;
  return rest;
}
