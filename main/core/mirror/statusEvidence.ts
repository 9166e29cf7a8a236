import type { Database } from 'better-sqlite3';
import { PROTOCOLS, isProtocol } from '../signals/primitives.ts';
import {
  dnsWatchEvidence,
  type PendingChange,
  type ProtocolEvidence,
  type VerdictAlert,
  type WatchedRecord,
} from '../status/index.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/**
 * What the status model reads from the mirror, for one domain or many at once (the overview reads 1,000
 * domains per change: a handful of queries, each one index walk, never one query per domain):
 *   - the newest health snapshot: a service_scan finding per protocol flag (and the DMARC record);
 *   - the newest DNS change event per protocol: published (connected) or absent (disconnected);
 *   - the service's DNS current status per protocol: published since last_connected, absent since
 *     last_disconnected (kept when a domain was opened);
 *   - the app's own DNS watch: its confirmed answer per protocol, as of its latest agreeing answer;
 *   - open alerts; pending changes.
 * A new evidence source adds its query here, and triggers on its table (see main/core/status/evidence.ts).
 */
export interface DomainStatusInputs {
  evidence: ProtocolEvidence[];
  openAlerts: VerdictAlert[];
  pending: PendingChange[];
}

type Scope = { domainPk: number } | { accountId: number | undefined };

function where(scope: Scope, column = 'd.id'): { sql: string; args: number[] } {
  if ('domainPk' in scope) return { sql: `AND ${column} = ?`, args: [scope.domainPk] };
  return scope.accountId === undefined
    ? { sql: '', args: [] }
    : { sql: 'AND d.account_id = ?', args: [scope.accountId] };
}

function bucket(map: Map<number, DomainStatusInputs>, pk: number): DomainStatusInputs {
  let entry = map.get(pk);
  if (!entry) {
    entry = { evidence: [], openAlerts: [], pending: [] };
    map.set(pk, entry);
  }
  return entry;
}

/** The status inputs of the domains in scope, keyed by domain pk (domains with none are absent). */
export function statusInputs(db: Database, scope: Scope): Map<number, DomainStatusInputs> {
  const out = new Map<number, DomainStatusInputs>();
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
    const flags = JSON.parse(h.protocols_json) as Record<string, unknown>;
    const evidence = bucket(out, h.domain_id).evidence;
    for (const protocol of PROTOCOLS) {
      const flag = flags[protocol];
      if (typeof flag !== 'boolean') continue;
      if (protocol === 'dmarc') {
        // The scan carries the DMARC record ('' reads as none published): it tells absent from invalid.
        const record = h.dmarc_record || null;
        const finding = flag ? 'valid' : record === null ? 'absent' : 'invalid';
        evidence.push({ protocol, source: 'service_scan', at: h.scanned_at, finding, record });
        continue;
      }
      evidence.push({
        protocol,
        source: 'service_scan',
        at: h.scanned_at,
        finding: flag ? 'valid' : 'not_passing',
      });
    }
  }

  const events = prepared(
    db,
    `SELECT domain_id, record_type, action, record_value, occurred_at FROM (
         SELECT e.*, row_number() OVER (PARTITION BY e.domain_id, e.record_type
                                        ORDER BY e.occurred_at DESC, e.remote_id DESC) AS n
           FROM domains d JOIN dns_events e ON e.domain_id = d.id
           WHERE e.action IN ('connected', 'disconnected') ${w.sql})
       WHERE n = 1`,
  ).all(...w.args) as {
    domain_id: number;
    record_type: string;
    action: string;
    record_value: string | null;
    occurred_at: string;
  }[];
  for (const e of events) {
    if (!isProtocol(e.record_type)) continue;
    bucket(out, e.domain_id).evidence.push({
      protocol: e.record_type,
      source: 'dns_event',
      at: e.occurred_at,
      finding: e.action === 'connected' ? 'published' : 'absent',
      record: e.action === 'connected' ? e.record_value : null,
    });
  }

  const current = prepared(
    db,
    `SELECT c.domain_id, c.protocol, c.current_status, c.last_connected, c.last_disconnected
       FROM domains d JOIN dns_current c ON c.domain_id = d.id WHERE 1 ${w.sql}`,
  ).all(...w.args) as {
    domain_id: number;
    protocol: string;
    current_status: string | null;
    last_connected: string | null;
    last_disconnected: string | null;
  }[];
  for (const c of current) {
    if (!isProtocol(c.protocol)) continue;
    // The status holds since its last change; without that time it cannot be placed among the others.
    const at = c.current_status === 'connected' ? c.last_connected : c.last_disconnected;
    if (!at || (c.current_status !== 'connected' && c.current_status !== 'disconnected')) continue;
    bucket(out, c.domain_id).evidence.push({
      protocol: c.protocol,
      source: 'dns_status',
      at,
      finding: c.current_status === 'connected' ? 'published' : 'absent',
    });
  }

  const watched = prepared(
    db,
    `SELECT w.domain_id, w.protocol, w.answer, w.value, w.resolver, w.state, w.state_checked_at
       FROM domains d JOIN dns_watch w ON w.domain_id = d.id WHERE 1 ${w.sql}`,
  ).all(...w.args) as {
    domain_id: number;
    protocol: string;
    answer: WatchedRecord['answer'];
    value: string | null;
    resolver: string;
    state: WatchedRecord['state'];
    state_checked_at: string | null;
  }[];
  for (const r of watched) {
    if (!isProtocol(r.protocol)) continue;
    const e = dnsWatchEvidence({
      protocol: r.protocol,
      answer: r.answer,
      value: r.value,
      resolver: r.resolver,
      state: r.state,
      stateCheckedAt: r.state_checked_at,
    });
    if (e) bucket(out, r.domain_id).evidence.push(e);
  }

  const alerts = prepared(
    db,
    `SELECT a.domain_id, a.rule, a.severity, a.title, a.details_json FROM alerts a JOIN domains d ON d.id = a.domain_id
       WHERE a.resolved_at IS NULL ${w.sql}`,
  ).all(...w.args) as {
    domain_id: number;
    rule: string;
    severity: VerdictAlert['severity'];
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
      expect: JSON.parse(p.expect_json) as PendingChange['expect'],
    });
  }
  return out;
}
