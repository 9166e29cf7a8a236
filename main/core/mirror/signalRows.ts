import type { Database } from 'better-sqlite3';
import type { SignalName, SignalPayloads } from '../signals/catalog.ts';
import type { DnsEvent } from '../signals/dnsTimeline.ts';
import type { HealthHistoryRow, HealthSnapshot } from '../signals/health.ts';
import type { SendingSource } from '../signals/sendingSources.ts';
import { toIso } from './isoTime.ts';
import { recordSenderPoll } from './senderHistory.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/** Where and when a per-domain payload is being stored. */
export interface RowTarget {
  domainPk: number;
  fetchedAt: string;
  /** The call's date window; '' marks the interface's default window. */
  window: { start: string; end: string };
}

type Writer<S extends SignalName> = (db: Database, payload: SignalPayloads[S], target: RowTarget) => void;
type PerDomainSignal = Exclude<SignalName, 'domains'>;

const json = (value: unknown): string => JSON.stringify(value);
const orNull = <T>(value: T | null | undefined): T | null => value ?? null;
const isoOrNull = (value: string | null | undefined): string | null => (value ? toIso(value) : null);
const bool = (value: boolean | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

function healthRow(row: HealthSnapshot | HealthHistoryRow, target: RowTarget) {
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

const HEALTH_INSERT = `INSERT INTO health_snapshots (domain_id, scanned_at, remote_id, source, result, mail_provider,
  protocols_json, protocols_passing, total_protocols, dmarc_record, raw_json, fetched_at)
  VALUES (@domain_id, @scanned_at, @remote_id, @source, @result, @mail_provider, @protocols_json,
  @protocols_passing, @total_protocols, @dmarc_record, @raw_json, @fetched_at)`;

function writeSources(
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

function writeDnsEvents(db: Database, events: DnsEvent[], target: RowTarget): void {
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

function withoutKey(payload: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = payload;
  return rest;
}

const WRITERS: { [S in PerDomainSignal]: Writer<S> } = {
  health(db, payload, target) {
    prepared(
      db,
      `${HEALTH_INSERT} ON CONFLICT (domain_id, scanned_at) DO UPDATE SET remote_id = coalesce(excluded.remote_id, remote_id),
       source = excluded.source, result = excluded.result, mail_provider = excluded.mail_provider,
       protocols_json = excluded.protocols_json, protocols_passing = excluded.protocols_passing,
       total_protocols = excluded.total_protocols, dmarc_record = excluded.dmarc_record,
       raw_json = excluded.raw_json, fetched_at = excluded.fetched_at`,
    ).run(healthRow(payload, target));
  },
  health_history(db, payload, target) {
    // A history row never overwrites a stored snapshot (the current-snapshot answer carries more fields).
    const insert = prepared(db, `${HEALTH_INSERT} ON CONFLICT (domain_id, scanned_at) DO NOTHING`);
    for (const row of payload) insert.run(healthRow(row, target));
  },
  security_score(db, payload, target) {
    prepared(
      db,
      `INSERT INTO security_scores (domain_id, computed_at, score, max_score, interpretation, message, raw_json, fetched_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (domain_id, computed_at) DO UPDATE SET score = excluded.score, max_score = excluded.max_score,
         interpretation = excluded.interpretation, message = excluded.message, raw_json = excluded.raw_json,
         fetched_at = excluded.fetched_at`,
    ).run(
      target.domainPk,
      payload.computed_at ? toIso(payload.computed_at) : target.fetchedAt,
      payload.score,
      orNull(payload.max_score),
      orNull(payload.interpretation),
      orNull(payload.message),
      json(payload),
      target.fetchedAt,
    );
  },
  score_history(db, payload, target) {
    const insert = prepared(
      db,
      `INSERT INTO score_history (domain_id, scanned_at, derived_score, protocols_passing, total_protocols, result,
         raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (domain_id, scanned_at) DO UPDATE SET derived_score = excluded.derived_score,
         protocols_passing = excluded.protocols_passing, total_protocols = excluded.total_protocols,
         result = excluded.result, raw_json = excluded.raw_json, fetched_at = excluded.fetched_at`,
    );
    for (const p of payload.history) {
      insert.run(
        target.domainPk,
        toIso(p.scanned_at),
        p.derived_score,
        orNull(p.protocols_passing),
        orNull(p.total_protocols),
        orNull(p.result),
        json(p),
        target.fetchedAt,
      );
    }
  },
  failed_sources(db, payload, target) {
    writeSources(db, 'failed', withoutKey(payload, 'failed_sources'), payload.failed_sources, target);
  },
  sending_services(db, payload, target) {
    writeSources(db, 'sending', withoutKey(payload, 'services'), payload.services, target);
  },
  mail_volume(db, payload, target) {
    const insert = prepared(
      db,
      `INSERT INTO mail_volume_days (domain_id, date, total, delivered, quarantined, rejected, dmarc_pass, dmarc_fail,
         raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (domain_id, date) DO UPDATE SET total = excluded.total, delivered = excluded.delivered,
         quarantined = excluded.quarantined, rejected = excluded.rejected, dmarc_pass = excluded.dmarc_pass,
         dmarc_fail = excluded.dmarc_fail, raw_json = excluded.raw_json, fetched_at = excluded.fetched_at`,
    );
    for (const day of payload.timeline) {
      insert.run(
        target.domainPk,
        day.date,
        orNull(day.total),
        orNull(day.delivered),
        orNull(day.quarantined),
        orNull(day.rejected),
        orNull(day.dmarc_pass),
        orNull(day.dmarc_fail),
        json(day),
        target.fetchedAt,
      );
    }
  },
  dns_changes(db, payload, target) {
    writeDnsEvents(db, payload, target);
  },
  dns_timeline(db, payload, target) {
    writeDnsEvents(db, payload.events, target);
    const upsert = prepared(
      db,
      `INSERT INTO dns_timeline_summary (domain_id, protocol, current_status, last_connected, last_disconnected,
         connection_count, disconnection_count, raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (domain_id, protocol) DO UPDATE SET current_status = excluded.current_status,
         last_connected = excluded.last_connected, last_disconnected = excluded.last_disconnected,
         connection_count = excluded.connection_count, disconnection_count = excluded.disconnection_count,
         raw_json = excluded.raw_json, fetched_at = excluded.fetched_at`,
    );
    for (const [protocol, s] of Object.entries(payload.summary ?? {})) {
      upsert.run(
        target.domainPk,
        protocol,
        orNull(s.current_status),
        isoOrNull(s.last_connected),
        isoOrNull(s.last_disconnected),
        orNull(s.connection_count),
        orNull(s.disconnection_count),
        json(s),
        target.fetchedAt,
      );
    }
  },
  dns_current(db, payload, target) {
    // The answer is the complete current map: a protocol it no longer lists is no longer current.
    prepared(db, 'DELETE FROM dns_current WHERE domain_id = ?').run(target.domainPk);
    const insert = prepared(
      db,
      `INSERT INTO dns_current (domain_id, protocol, current_status, verified, status, last_connected,
         last_disconnected, record_value, lookup_count, raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const [protocol, e] of Object.entries(payload.protocols)) {
      insert.run(
        target.domainPk,
        protocol,
        orNull(e.current_status),
        bool(e.verified),
        orNull(e.status),
        isoOrNull(e.last_connected),
        isoOrNull(e.last_disconnected),
        orNull(e.record_value),
        orNull(e.lookup_count),
        json(e),
        target.fetchedAt,
      );
    }
  },
  dns_history(db, payload, target) {
    const insert = prepared(
      db,
      `INSERT OR IGNORE INTO dns_record_history (domain_id, record_type, occurred_at, record_value, lookup_count,
         raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const row of payload) {
      insert.run(
        target.domainPk,
        row.record_type,
        toIso(row.occurred_at),
        orNull(row.record_value),
        orNull(row.lookup_count),
        json(row),
        target.fetchedAt,
      );
    }
  },
  dns_snapshots(db, payload, target) {
    const insert = prepared(
      db,
      `INSERT INTO dns_snapshots (domain_id, record_type, remote_id, record_value, occurred_at, lookup_count, raw_json,
         fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (domain_id, record_type, remote_id) DO NOTHING`,
    );
    for (const recordType of ['dmarc', 'spf'] as const) {
      for (const row of payload[recordType] ?? []) {
        insert.run(
          target.domainPk,
          recordType,
          row.id,
          orNull(row.record_value),
          toIso(row.occurred_at),
          orNull(row.lookup_count),
          json(row),
          target.fetchedAt,
        );
      }
    }
  },
  tls_rpt(db, payload, target) {
    prepared(
      db,
      `INSERT INTO tls_rpt_summaries (domain_id, config_json, failures_json, raw_json, fetched_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (domain_id) DO UPDATE SET config_json = excluded.config_json,
         failures_json = excluded.failures_json, raw_json = excluded.raw_json, fetched_at = excluded.fetched_at`,
    ).run(
      target.domainPk,
      payload.config ? json(payload.config) : null,
      payload.failures ? json(payload.failures) : null,
      json(payload),
      target.fetchedAt,
    );
  },
  dashboard_cache(db, payload, target) {
    const start = target.window.start || payload.start_date || '';
    const end = target.window.end || payload.end_date || '';
    prepared(
      db,
      `INSERT INTO dashboard_cache (domain_id, window_start, window_end, cached, cached_at, data_json, raw_json, fetched_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (domain_id, window_start, window_end) DO UPDATE SET cached = excluded.cached,
         cached_at = excluded.cached_at, data_json = excluded.data_json, raw_json = excluded.raw_json,
         fetched_at = excluded.fetched_at`,
    ).run(
      target.domainPk,
      start,
      end,
      Number(payload.cached),
      isoOrNull(payload.cached_at),
      payload.data ? json(payload.data) : null,
      json(payload),
      target.fetchedAt,
    );
  },
};

/** Store a per-domain signal's payload in its tables. */
export function writeSignalRows<S extends PerDomainSignal>(
  db: Database,
  signal: S,
  payload: SignalPayloads[S],
  target: RowTarget,
): void {
  (WRITERS[signal] as Writer<S>)(db, payload, target);
}
