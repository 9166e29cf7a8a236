/**
 * The live checks' bench world: N domains, each with an SPF record that includes one of 20 vendors' trees
 * (3 lookups each, shared as real vendors' are), an MTA-STS record and policy host, and an MX host of its own
 * name on one of 50 shared mail-hosting addresses (127.0.1.1–127.0.1.50: loopback, so the SMTP servers of the
 * world answer them; a hosting provider's address serves thousands of customers' MX names); the test DNSBL
 * zone lists the first hosting address (2 % of domains) — written into a service database for the world's
 * process (./liveZoneProcess.ts).
 */
import type { ServiceDb } from '../../../service/db/openServiceDb.ts';
import { writeZoneRecords } from '../../../service/dns/sandboxZone.ts';
import { publishTestDnsbl, setDnsblListing } from '../../../service/dns/testDnsbl.ts';

/** The fqdn of domain number `i`. */
export const liveFqdnOf = (i: number) => `d${i}.live.example`;
const VENDORS = 20;
/** The shared mail-hosting addresses the MX hosts resolve to (each has an SMTP server in the world). */
export const HOSTING_ADDRESSES = Array.from({ length: 50 }, (_, k) => `127.0.1.${k + 1}`);
/** The MTA-STS policy `fqdn` serves (its mx pattern covers the domain's MX host). */
export const benchPolicy = (fqdn: string) =>
  `version: STSv1\r\nmode: enforce\r\nmx: *.${fqdn}\r\nmax_age: 604800\r\n`;

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
  setDnsblListing(db, HOSTING_ADDRESSES[0]!, { code: '127.0.0.2', reason: 'bench listing' }, now);
  db.transaction(() => {
    for (let i = 0; i < domains; i++) {
      const fqdn = liveFqdnOf(i);
      const a = (name: string, address: string) =>
        writeZoneRecords(db, { zone: fqdn, name, rrtype: 'A', values: [address], now });
      txt(fqdn, fqdn, `v=spf1 mx include:_spf.vendor${i % VENDORS}.example ~all`);
      writeZoneRecords(db, { zone: fqdn, name: fqdn, rrtype: 'MX', values: [`10 mx.${fqdn}`], now });
      a(`mx.${fqdn}`, HOSTING_ADDRESSES[i % HOSTING_ADDRESSES.length]!);
      txt(fqdn, `_mta-sts.${fqdn}`, 'v=STSv1; id=20261129');
      a(`mta-sts.${fqdn}`, '127.0.0.1');
    }
  })();
}
