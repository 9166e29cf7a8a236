/**
 * What the service reported that the live checks set their own findings beside, read from the mirror (never
 * asked of the API): the SPF lookup count of the service's newest reading, and the sending IPs it reports
 * for a domain (TLS-RPT's sending MTAs), which the blocklist check looks up.
 */
import { isIP } from 'node:net';
import type { Database } from 'better-sqlite3';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/** The service's SPF lookup count for a domain and when it was read. */
export interface ServiceSpfCount {
  count: number;
  at: string;
}

/** The newest SPF lookup_count the service reported (dns/current or a DNS snapshot), or null. */
export function serviceSpfLookupCount(db: Database, domainPk: number): ServiceSpfCount | null {
  const row = prepared(
    db,
    `SELECT count, at FROM (
       SELECT lookup_count AS count, fetched_at AS at FROM dns_current
         WHERE domain_id = ? AND protocol = 'spf' AND lookup_count IS NOT NULL
       UNION ALL
       SELECT lookup_count, occurred_at FROM dns_snapshots
         WHERE domain_id = ? AND record_type = 'spf' AND lookup_count IS NOT NULL)
     ORDER BY at DESC LIMIT 1`,
  ).get(domainPk, domainPk) as ServiceSpfCount | undefined;
  return row ?? null;
}

/** At most this many reported IPs are looked up per domain (each costs a query per zone). */
const MAX_REPORTED_IPS = 20;

/** Every `sending_mta_ip` in a JSON document, wherever it sits. */
function collectIps(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collectIps(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'sending_mta_ip' && typeof v === 'string' && isIP(v) !== 0) out.add(v);
      else collectIps(v, out);
    }
  }
}

/** The sending IPs the service reports for a domain (its TLS-RPT failures' sending MTAs), at most 20. */
export function reportedSendingIps(db: Database, domainPk: number): string[] {
  const row = prepared(db, 'SELECT failures_json FROM tls_rpt_summaries WHERE domain_id = ?').get(
    domainPk,
  ) as { failures_json: string | null } | undefined;
  const out = new Set<string>();
  if (row?.failures_json) collectIps(JSON.parse(row.failures_json) as unknown, out);
  return [...out].slice(0, MAX_REPORTED_IPS);
}
