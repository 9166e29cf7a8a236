import type { Database } from 'better-sqlite3';
import type { Severity } from '../alerts/types.ts';
import { isProtocol, type Protocol } from '../signals/primitives.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';
import type { Expectation } from './types.ts';

/**
 * The rows the status model reads of one domain, as the mirror stores them (decoded, never judged: what a
 * row means for a protocol's status is main/core/status/statusInput.ts's to say):
 *   - the newest health snapshot: the service scan's pass flag per protocol (and the DMARC record);
 *   - the newest DNS change event (connected / disconnected) per protocol;
 *   - the service's DNS current status per protocol (kept when a domain was opened);
 *   - the app's own DNS watch, per protocol;
 *   - open alerts; pending changes.
 * A new evidence source adds its rows here, and triggers on its table (see main/core/status/evidence.ts).
 */
export interface StatusRows {
  health: HealthRow | null;
  dnsEvents: DnsEventRow[];
  dnsCurrent: DnsCurrentRow[];
  watched: WatchedRow[];
  openAlerts: OpenAlertRow[];
  pending: PendingRow[];
}

/** The newest health snapshot: its pass flags by protocol (as stored: any JSON value), DMARC record, time. */
export interface HealthRow {
  flags: Record<string, unknown>;
  /** '' as the service sends "none published" is kept as it is. */
  dmarcRecord: string | null;
  scannedAt: string;
}

/** The newest connected / disconnected event of one protocol. */
export interface DnsEventRow {
  protocol: Protocol;
  action: 'connected' | 'disconnected';
  recordValue: string | null;
  occurredAt: string;
}

/** The service's DNS current status of one protocol. */
export interface DnsCurrentRow {
  protocol: Protocol;
  currentStatus: string | null;
  lastConnected: string | null;
  lastDisconnected: string | null;
}

/** One record of the DNS watch (a row of dns_watch). */
export interface WatchedRow {
  protocol: Protocol;
  /** The latest answer, confirmed or not. */
  answer: 'present' | 'invalid' | 'absent' | 'unknown';
  /** The record(s) the latest answer carried, one per line. */
  value: string | null;
  /** The server that gave the latest answer (host:port). */
  resolver: string;
  /** The confirmed evidence (null before the first definite answer). */
  state: 'connected' | 'disconnected' | null;
  /** The latest answer that agreed with the confirmed state. */
  stateCheckedAt: string | null;
}

/** One open alert of the domain. */
export interface OpenAlertRow {
  rule: string;
  severity: Severity;
  title: string;
  details: Record<string, unknown>;
}

/** One edit written and not yet confirmed. */
export interface PendingRow {
  protocol: Protocol;
  summary: string;
  changedAt: string;
  baselineAt: string | null;
  expect: Expectation;
}

type Scope = { domainPk: number } | { accountId: number | undefined };

function where(scope: Scope, column = 'd.id'): { sql: string; args: number[] } {
  if ('domainPk' in scope) return { sql: `AND ${column} = ?`, args: [scope.domainPk] };
  return scope.accountId === undefined
    ? { sql: '', args: [] }
    : { sql: 'AND d.account_id = ?', args: [scope.accountId] };
}

function bucket(map: Map<number, StatusRows>, pk: number): StatusRows {
  let entry = map.get(pk);
  if (!entry) {
    entry = { health: null, dnsEvents: [], dnsCurrent: [], watched: [], openAlerts: [], pending: [] };
    map.set(pk, entry);
  }
  return entry;
}

/**
 * The status rows of the domains in scope, keyed by domain pk (domains with none are absent), for one
 * domain or many at once (the overview reads 1,000 domains per change: a handful of queries, each one index
 * walk, never one query per domain).
 */
export function statusRows(db: Database, scope: Scope): Map<number, StatusRows> {
  const out = new Map<number, StatusRows>();
  const w = where(scope);

  // Domains first (CROSS JOIN fixes the order): one index seek per domain, never a scan of the history.
  const health = prepared(
    db,
    `SELECT t.domain_id, t.protocols_json, t.dmarc_record, t.scanned_at FROM domains d CROSS JOIN health_snapshots t
       ON t.domain_id = d.id AND t.scanned_at = (SELECT max(scanned_at) FROM health_snapshots WHERE domain_id = d.id)
       WHERE 1 ${w.sql}`,
  ).all(...w.args) as {
    domain_id: number;
    protocols_json: string;
    dmarc_record: string | null;
    scanned_at: string;
  }[];
  for (const h of health) {
    bucket(out, h.domain_id).health = {
      flags: JSON.parse(h.protocols_json) as Record<string, unknown>,
      dmarcRecord: h.dmarc_record,
      scannedAt: h.scanned_at,
    };
  }

  // The rows of one protocol each: typed by their protocol (a row of an unknown protocol is skipped).
  const byProtocol = <K extends 'dnsEvents' | 'dnsCurrent' | 'watched'>(key: K, sql: string) => {
    const rows = prepared(db, sql).all(...w.args) as ({ domain_id: number; protocol: string } & Omit<
      StatusRows[K][number],
      'protocol'
    >)[];
    for (const { domain_id, protocol, ...row } of rows) {
      if (isProtocol(protocol)) (bucket(out, domain_id)[key] as unknown[]).push({ protocol, ...row });
    }
  };
  byProtocol(
    'dnsEvents',
    `SELECT domain_id, record_type AS protocol, action, record_value AS recordValue, occurred_at AS occurredAt
       FROM (
         SELECT e.*, row_number() OVER (PARTITION BY e.domain_id, e.record_type
                                        ORDER BY e.occurred_at DESC, e.remote_id DESC) AS n
           FROM domains d JOIN dns_events e ON e.domain_id = d.id
           WHERE e.action IN ('connected', 'disconnected') ${w.sql})
       WHERE n = 1`,
  );
  byProtocol(
    'dnsCurrent',
    `SELECT c.domain_id, c.protocol, c.current_status AS currentStatus, c.last_connected AS lastConnected,
            c.last_disconnected AS lastDisconnected
       FROM domains d JOIN dns_current c ON c.domain_id = d.id WHERE 1 ${w.sql}`,
  );
  byProtocol(
    'watched',
    `SELECT w.domain_id, w.protocol, w.answer, w.value, w.resolver, w.state, w.state_checked_at AS stateCheckedAt
       FROM domains d JOIN dns_watch w ON w.domain_id = d.id WHERE 1 ${w.sql}`,
  );

  const alerts = prepared(
    db,
    `SELECT a.domain_id, a.rule, a.severity, a.title, a.details_json FROM alerts a JOIN domains d ON d.id = a.domain_id
       WHERE a.resolved_at IS NULL ${w.sql}`,
  ).all(...w.args) as {
    domain_id: number;
    rule: string;
    severity: Severity;
    title: string;
    details_json: string | null;
  }[];
  for (const a of alerts) {
    bucket(out, a.domain_id).openAlerts.push({
      rule: a.rule,
      severity: a.severity,
      title: a.title,
      details: a.details_json ? (JSON.parse(a.details_json) as Record<string, unknown>) : {},
    });
  }

  const pending = prepared(
    db,
    `SELECT p.domain_id, p.protocol, p.summary, p.changed_at, p.baseline_at, p.expect_json
       FROM pending_changes p JOIN domains d ON d.id = p.domain_id WHERE 1 ${w.sql}`,
  ).all(...w.args) as {
    domain_id: number;
    protocol: string;
    summary: string;
    changed_at: string;
    baseline_at: string | null;
    expect_json: string;
  }[];
  for (const p of pending) {
    if (!isProtocol(p.protocol)) continue;
    bucket(out, p.domain_id).pending.push({
      protocol: p.protocol,
      summary: p.summary,
      changedAt: p.changed_at,
      baselineAt: p.baseline_at,
      expect: JSON.parse(p.expect_json) as Expectation,
    });
  }
  return out;
}
