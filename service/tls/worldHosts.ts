/**
 * Points the zone's hosts at the reference world's servers: the MTA-STS policy host, and every MX exchange of
 * the zone that has no address yet, get an A record of the address the servers listen on — so the app, asking
 * the zone over real DNS, dials them as a sending MTA would dial the real ones.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { normalizeName, parseMx, writeZoneRecords } from '../dns/sandboxZone.ts';
import { HOSTED_ZONE, MTA_STS_POLICY_HOST } from '../hosted/serviceDns.ts';

/** Writes the A records; returns the host names pointed. */
export function pointWorldHosts(db: ServiceDb, address: string, now: Date): string[] {
  const pointed: string[] = [];
  writeZoneRecords(db, { zone: HOSTED_ZONE, name: MTA_STS_POLICY_HOST, rrtype: 'A', values: [address], now });
  pointed.push(MTA_STS_POLICY_HOST);
  const mx = db
    .prepare<[], { zone: string; value: string }>("SELECT zone, value FROM dns_records WHERE rrtype = 'MX'")
    .all();
  const hasAddress = db.prepare<[string], { one: number }>(
    "SELECT 1 AS one FROM dns_records WHERE name = ? AND rrtype IN ('A', 'AAAA', 'CNAME')",
  );
  for (const row of mx) {
    const host = normalizeName(parseMx(row.value).exchange);
    if (!host || hasAddress.get(host)) continue;
    writeZoneRecords(db, { zone: row.zone, name: host, rrtype: 'A', values: [address], now });
    pointed.push(host);
  }
  return pointed;
}
