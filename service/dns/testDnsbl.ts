/**
 * The reference world's blocklist: a DNSBL zone served by the service's DNS server, as RFC 5782 describes
 * one. It always lists 127.0.0.2 (the test entry every DNSBL must carry, §5) and never 127.0.0.1, and a
 * sandbox call lists or delists any address with a code and a TXT reason (service/sandbox/dnsbl.ts).
 */
import { reversedIp } from '../../shared/email-auth/reversedIp.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { writeZoneRecords } from './sandboxZone.ts';

/** The test zone's name (the app is told to use it like any zone the user chooses). */
export const TEST_DNSBL_ZONE = 'bl.authwatch.test';

/** Lists `ip` (A `code` and TXT `reason`) or, with null, delists it. */
export function setDnsblListing(
  db: ServiceDb,
  ip: string,
  listing: { code: string; reason: string } | null,
  now: Date,
): void {
  const reversed = reversedIp(ip);
  if (reversed === null) throw new Error(`${ip} is not an IP address`);
  const name = `${reversed}.${TEST_DNSBL_ZONE}`;
  writeZoneRecords(db, {
    zone: TEST_DNSBL_ZONE,
    name,
    rrtype: 'A',
    values: listing ? [listing.code] : [],
    now,
  });
  writeZoneRecords(db, {
    zone: TEST_DNSBL_ZONE,
    name,
    rrtype: 'TXT',
    values: listing ? [listing.reason] : [],
    now,
  });
}

/** Publishes the zone with its RFC 5782 test entry (idempotent). */
export function publishTestDnsbl(db: ServiceDb, now: Date): void {
  setDnsblListing(db, '127.0.0.2', { code: '127.0.0.2', reason: 'RFC 5782 test entry' }, now);
}
