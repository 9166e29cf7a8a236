/**
 * The live checks' bench world: N domains, each with an MX host of its own address and an SPF record that
 * includes one of 20 vendors' trees (3 lookups each, shared as real vendors' are), and the test DNSBL zone
 * listing every 100th address — written into a service database for the zone server process.
 */
import type { ServiceDb } from '../../../service/db/openServiceDb.ts';
import { writeZoneRecords } from '../../../service/dns/sandboxZone.ts';
import { publishTestDnsbl, setDnsblListing } from '../../../service/dns/testDnsbl.ts';

/** The fqdn of domain number `i`. */
export const liveFqdnOf = (i: number) => `d${i}.live.example`;
const VENDORS = 20;
/** The MX address of domain number `i` (198.18.0.0/15, the benchmarking range). */
const mxIp = (i: number) => `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`;

/** Writes the world of `domains` domains. */
export function writeLiveZone(db: ServiceDb, domains: number): void {
  const now = new Date();
  const txt = (zone: string, name: string, value: string) =>
    writeZoneRecords(db, { zone, name, rrtype: 'TXT', values: [value], now });
  for (let v = 0; v < VENDORS; v++) {
    const vendor = `_spf.vendor${v}.example`;
    txt(vendor, vendor, `v=spf1 include:a.${vendor} include:b.${vendor} ~all`);
    txt(vendor, `a.${vendor}`, 'v=spf1 ip4:192.0.2.0/24 ~all');
    txt(vendor, `b.${vendor}`, 'v=spf1 ip4:198.51.100.0/24 ~all');
  }
  publishTestDnsbl(db, now);
  db.transaction(() => {
    for (let i = 0; i < domains; i++) {
      const fqdn = liveFqdnOf(i);
      txt(fqdn, fqdn, `v=spf1 mx include:_spf.vendor${i % VENDORS}.example ~all`);
      writeZoneRecords(db, { zone: fqdn, name: fqdn, rrtype: 'MX', values: [`10 mx.${fqdn}`], now });
      writeZoneRecords(db, { zone: fqdn, name: `mx.${fqdn}`, rrtype: 'A', values: [mxIp(i)], now });
      if (i % 100 === 0) setDnsblListing(db, mxIp(i), { code: '127.0.0.2', reason: 'bench listing' }, now);
    }
  })();
}
