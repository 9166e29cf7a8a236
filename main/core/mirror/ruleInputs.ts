import type { Database } from 'better-sqlite3';
import type { HealthReading } from '../alerts/rules/healthRegressed.ts';
import type { ScoreReading } from '../alerts/rules/scoreDropped.ts';
import type { KnownThreats } from '../alerts/rules/threatSourceAppeared.ts';
import { readingFromDnsEvents, readingFromHealth, type ProtocolReading } from '../alerts/protocolReading.ts';
import type { LatestDnsEvents } from '../alerts/types.ts';
import type { AppEdit } from '../signals/definition.ts';
import { isProtocol } from '../signals/primitives.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

// The rules compare state the mirror holds before a write with state it holds after: reading both from the
// same tables (rather than from the payload) means backfilled old rows never look like news.

interface HealthRow {
  scanned_at: string;
  result: string | null;
  protocols_json: string;
  protocols_passing: number | null;
  total_protocols: number | null;
  dmarc_record: string | null;
}

/** The latest health snapshot of a domain, as protocol and health readings; null when none is stored. */
export function latestHealth(
  db: Database,
  domainPk: number,
): { protocols: ProtocolReading; health: HealthReading; dmarcRecord: string | null } | null {
  const row = prepared(
    db,
    `SELECT scanned_at, result, protocols_json, protocols_passing, total_protocols, dmarc_record FROM health_snapshots
       WHERE domain_id = ? ORDER BY scanned_at DESC LIMIT 1`,
  ).get(domainPk) as HealthRow | undefined;
  if (!row) return null;
  const flags = JSON.parse(row.protocols_json) as Record<string, unknown>;
  const passing = row.protocols_passing ?? Object.values(flags).filter((v) => v === true).length;
  return {
    protocols: readingFromHealth(flags, row.scanned_at),
    health: { passing, total: row.total_protocols, result: row.result, at: row.scanned_at },
    dmarcRecord: row.dmarc_record,
  };
}

/** The latest stored DNS event per protocol (ties on time go to the higher event id). */
export function latestDnsEvents(db: Database, domainPk: number): LatestDnsEvents {
  const rows = prepared(
    db,
    `SELECT record_type, action, occurred_at, remote_id FROM (
         SELECT *, row_number() OVER (PARTITION BY record_type ORDER BY occurred_at DESC, remote_id DESC) AS n
         FROM dns_events WHERE domain_id = ?) WHERE n = 1`,
  ).all(domainPk) as { record_type: string; action: string; occurred_at: string; remote_id: number }[];
  const latest: LatestDnsEvents = {};
  for (const r of rows) {
    if (isProtocol(r.record_type)) {
      latest[r.record_type] = { action: r.action, occurredAt: r.occurred_at, eventId: r.remote_id };
    }
  }
  return latest;
}

/**
 * The DNS protocol reading, or null when the domain's DNS feed was never fetched before (the first fetch is
 * a baseline: 30 days of old events are history, not news).
 */
export function dnsReading(db: Database, domainPk: number, everFetched: boolean): ProtocolReading | null {
  return everFetched ? readingFromDnsEvents(latestDnsEvents(db, domainPk)) : null;
}

/** The latest score the health polls imply (score history: derived from scans), or null. */
export function latestDerivedScore(db: Database, domainPk: number): ScoreReading | null {
  const row = prepared(
    db,
    'SELECT derived_score AS score, scanned_at FROM score_history WHERE domain_id = ? ORDER BY scanned_at DESC LIMIT 1',
  ).get(domainPk) as { score: number; scanned_at: string } | undefined;
  return row ? { score: row.score, at: row.scanned_at } : null;
}

/** The latest score the service itself answered (not one derived from a scan), or null. */
export function latestMeasuredScore(db: Database, domainPk: number): ScoreReading | null {
  const row = prepared(
    db,
    `SELECT score, computed_at FROM security_scores
       WHERE domain_id = ? AND json_extract(raw_json, '$.derived_score') IS NULL ORDER BY computed_at DESC LIMIT 1`,
  ).get(domainPk) as { score: number; computed_at: string } | undefined;
  return row ? { score: row.score, at: row.computed_at } : null;
}

/** Every registered threat ever seen on the domain. */
export function knownThreats(db: Database, domainPk: number): KnownThreats {
  const rows = prepared(db, 'SELECT source_name FROM threat_sources_seen WHERE domain_id = ?').all(
    domainPk,
  ) as {
    source_name: string;
  }[];
  return { known: new Set(rows.map((r) => r.source_name)) };
}

/** Remember registered threats as seen (once per source per domain). */
export function rememberThreats(db: Database, domainPk: number, names: Iterable<string>, at: string): void {
  const insert = prepared(
    db,
    'INSERT INTO threat_sources_seen (domain_id, source_name, first_seen_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  for (const name of names) insert.run(domainPk, name, at);
}

/** The tags the user's latest edit of a protocol in this app set, and when (null: no edit kept). */
export function appEdit(db: Database, domainPk: number, protocol: string): AppEdit {
  const row = prepared(
    db,
    'SELECT changed_at, expect_json FROM pending_changes WHERE domain_id = ? AND protocol = ?',
  ).get(domainPk, protocol) as { changed_at: string; expect_json: string } | undefined;
  if (!row) return null;
  const expect = JSON.parse(row.expect_json) as { tags?: Record<string, string> };
  return { changedAt: row.changed_at, tags: expect.tags ?? {} };
}
