import type { Database } from 'better-sqlite3';
import type { ProtocolReading } from '../alerts/protocolReading.ts';
import type { WatchedDns } from '../alerts/types.ts';
import { isProtocol, PROTOCOLS, type Protocol } from '../signals/primitives.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/** One record as the DNS watch last saw it (main/core/dnswatch), and the evidence it confirmed. */
export interface DnsWatchRecord {
  protocol: Protocol;
  /** The name queried (`_dmarc.<domain>`, the apex for SPF…). */
  name: string;
  answer: 'present' | 'invalid' | 'absent' | 'unknown';
  /** The protocol's record(s) found, one per line. */
  value: string | null;
  /** Why invalid or unknown, in words. */
  reason: string | null;
  /** Seconds the answer may be cached (positive or negative); null when the server gave none. */
  ttl: number | null;
  /** The server that answered (host:port). */
  resolver: string;
  checkedAt: string;
  /** The confirmed evidence (null until a first definite answer). */
  state: 'connected' | 'disconnected' | null;
  stateSince: string | null;
  stateCheckedAt: string | null;
}

interface Row {
  protocol: string;
  name: string;
  answer: DnsWatchRecord['answer'];
  value: string | null;
  reason: string | null;
  ttl: number | null;
  resolver: string;
  checked_at: string;
  state: DnsWatchRecord['state'];
  state_since: string | null;
  state_checked_at: string | null;
}

function toRecord(r: Row): DnsWatchRecord | null {
  if (!isProtocol(r.protocol)) return null;
  return {
    protocol: r.protocol,
    name: r.name,
    answer: r.answer,
    value: r.value,
    reason: r.reason,
    ttl: r.ttl,
    resolver: r.resolver,
    checkedAt: r.checked_at,
    state: r.state,
    stateSince: r.state_since,
    stateCheckedAt: r.state_checked_at,
  };
}

/** What the service's health scans say of each protocol, for comparing with DNS. */
export interface ServiceProtocolView {
  /** The latest scan's flag (undefined: the scan says nothing of it). */
  connected: boolean | undefined;
  /** Since when the scans have said so (the first scan of the latest run of equal flags). */
  since: string | null;
}

export interface ServiceView {
  scannedAt: string | null;
  /** The scan before the latest (the service's scan period is the gap). */
  previousScannedAt: string | null;
  protocols: Partial<Record<Protocol, ServiceProtocolView>>;
}

/** The dns_watch table: the latest answer per (domain, protocol). */
export class DnsWatchStore {
  constructor(private readonly db: Database) {}

  /** The records of a domain, in protocol order of the table. */
  list(domainPk: number): DnsWatchRecord[] {
    const rows = prepared(this.db, 'SELECT * FROM dns_watch WHERE domain_id = ?').all(domainPk) as Row[];
    return rows.map(toRecord).filter((r): r is DnsWatchRecord => r !== null);
  }

  /** Stores the latest answer of one record. */
  upsert(domainPk: number, r: DnsWatchRecord): void {
    prepared(
      this.db,
      `INSERT INTO dns_watch (domain_id, protocol, name, answer, value, reason, ttl, resolver, checked_at, state,
           state_since, state_checked_at)
         VALUES (@domainPk, @protocol, @name, @answer, @value, @reason, @ttl, @resolver, @checkedAt, @state,
           @stateSince, @stateCheckedAt)
         ON CONFLICT (domain_id, protocol) DO UPDATE SET name = excluded.name, answer = excluded.answer,
           value = excluded.value, reason = excluded.reason, ttl = excluded.ttl, resolver = excluded.resolver,
           checked_at = excluded.checked_at, state = excluded.state, state_since = excluded.state_since,
           state_checked_at = excluded.state_checked_at`,
    ).run({ domainPk, ...r });
  }

  /**
   * The confirmed evidence as a protocol reading (observed when its run of answers began), or null when the
   * watch holds no confirmed state for the domain yet (its first answers are a baseline).
   */
  reading(domainPk: number): ProtocolReading | null {
    const protocols: ProtocolReading['protocols'] = {};
    let any = false;
    for (const r of this.list(domainPk)) {
      if (r.state === null || r.stateSince === null) continue;
      protocols[r.protocol] = { status: r.state, at: r.stateSince };
      any = true;
    }
    return any ? { source: 'dns_watch', protocols } : null;
  }

  /** What the watch says now, as of its latest agreeing answer (for the health rules). */
  watched(domainPk: number): WatchedDns {
    const out: WatchedDns = {};
    for (const r of this.list(domainPk)) {
      if (r.state !== null && r.stateCheckedAt !== null) {
        out[r.protocol] = { status: r.state, at: r.stateCheckedAt };
      }
    }
    return out;
  }

  /** The latest health scans of a domain, per protocol (newest 50 scans are enough for a run's start). */
  serviceView(domainPk: number): ServiceView {
    const rows = prepared(
      this.db,
      'SELECT scanned_at, protocols_json FROM health_snapshots WHERE domain_id = ? ORDER BY scanned_at DESC LIMIT 50',
    ).all(domainPk) as { scanned_at: string; protocols_json: string }[];
    const view: ServiceView = {
      scannedAt: rows[0]?.scanned_at ?? null,
      previousScannedAt: rows[1]?.scanned_at ?? null,
      protocols: {},
    };
    const flags = rows.map((r) => JSON.parse(r.protocols_json) as Record<string, unknown>);
    for (const protocol of PROTOCOLS) {
      const latest = flags[0]?.[protocol];
      if (typeof latest !== 'boolean') continue;
      let since = rows[0]!.scanned_at;
      for (let i = 1; i < rows.length && flags[i]![protocol] === latest; i++) since = rows[i]!.scanned_at;
      view.protocols[protocol] = { connected: latest, since };
    }
    return view;
  }

  /** Records watched, the oldest and newest answer, and how many answered unknown last time. */
  summary(): {
    records: number;
    oldestCheckedAt: string | null;
    newestCheckedAt: string | null;
    unknown: number;
  } {
    const row = prepared(
      this.db,
      `SELECT count(*) AS records, min(checked_at) AS oldest, max(checked_at) AS newest,
           sum(answer = 'unknown') AS unknown
         FROM dns_watch w JOIN domains d ON d.id = w.domain_id WHERE d.removed_at IS NULL`,
    ).get() as { records: number; oldest: string | null; newest: string | null; unknown: number | null };
    return {
      records: row.records,
      oldestCheckedAt: row.oldest,
      newestCheckedAt: row.newest,
      unknown: row.unknown ?? 0,
    };
  }
}
