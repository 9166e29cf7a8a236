import { bool, isoOrNull, json, orNull } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { domainSignal } from '../definition.ts';
import { dnsCurrentSchema } from '../dnsTimeline.ts';
import { declareSignal } from '../signalDeclaration.ts';

const DAY_MS = 86_400_000;

/** One protocol's record as the service last read it (a row of the mirror's dns_current). */
export interface CurrentRecord {
  currentStatus: string | null;
  verified: boolean | null;
  recordValue: string | null;
  /** SPF only: the DNS lookups its evaluation takes (receivers allow 10). */
  lookupCount: number | null;
}

/** The records as the service last read them, by protocol, and when; null before the first read. */
export type CurrentRecords = { fetchedAt: string; protocols: Partial<Record<string, CurrentRecord>> } | null;

interface CurrentRow {
  protocol: string;
  current_status: string | null;
  verified: number | null;
  record_value: string | null;
  lookup_count: number | null;
  fetched_at: string;
}

/**
 * The DNS records published now, per protocol (GET .../dns/current), with SPF's lookup count. Read for every
 * domain weekly (history tier, beside the DNS changes), so rules on the service's current records run for
 * every domain, not only those someone opened; opening a domain reads it again when it is older than a few
 * minutes (app/methods/reads.ts, openDomain).
 */
const dnsCurrent = domainSignal({
  scope: 'domains:read',
  fetch: { path: '/domains/{domain_id}/dns/current', notFound: 'domain_gone' },
  schema: dnsCurrentSchema,
  plan: { role: 'core', tier: 'history', priority: 4, periodSeconds: 6 * 3600, keptPeriodMs: 7 * DAY_MS },
  words: 'The DNS records published now',
  store(db, payload, target) {
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
  ruleState({ db, domainPk }): CurrentRecords {
    const rows = prepared(
      db,
      `SELECT protocol, current_status, verified, record_value, lookup_count, fetched_at FROM dns_current
       WHERE domain_id = ?`,
    ).all(domainPk) as CurrentRow[];
    if (rows.length === 0) return null;
    return {
      fetchedAt: rows[0]!.fetched_at,
      protocols: Object.fromEntries(
        rows.map((r) => [
          r.protocol,
          {
            currentStatus: r.current_status,
            verified: r.verified === null ? null : r.verified === 1,
            recordValue: r.record_value,
            lookupCount: r.lookup_count,
          },
        ]),
      ),
    };
  },
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    dns_current: typeof dnsCurrent;
  }
}

export default declareSignal('dns_current', dnsCurrent);
