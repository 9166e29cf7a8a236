// The DNS watch asks a resolver on IPv6 given as `[::1]:PORT` (as `--dns-server` and the settings take it):
// the reference service's zone served on ::1, over UDP and, for a truncated answer, TCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsQuery } from '../../../main/core/dnswatch/dnsQuery.ts';
import { parseServer } from '../../../main/core/dnswatch/watchSettings.ts';
import { openServiceDb, type ServiceDb } from '../../../service/db/openServiceDb.ts';
import { writeZoneRecords } from '../../../service/dns/sandboxZone.ts';
import { startZoneDnsServer, type ZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';

let db: ServiceDb;
let server: ZoneDnsServer;
const long = `v=spf1 ${Array.from({ length: 40 }, (_, i) => `ip4:198.51.100.${i}`).join(' ')} -all`;

beforeAll(async () => {
  db = openServiceDb(':memory:');
  const now = new Date();
  writeZoneRecords(db, {
    zone: 'six.example',
    name: '_dmarc.six.example',
    rrtype: 'TXT',
    values: ['v=DMARC1; p=reject'],
    now,
  });
  writeZoneRecords(db, { zone: 'six.example', name: 'six.example', rrtype: 'TXT', values: [long], now });
  server = await startZoneDnsServer({ db, host: '::1', port: 0, ttl: 120 });
});
afterAll(async () => {
  await server?.close();
  db?.close();
});

describe('a resolver on IPv6', () => {
  it('is asked at [::1]:PORT over UDP, and over TCP when the answer is truncated', async () => {
    const resolver = parseServer(`[::1]:${server.port}`);
    expect(resolver).toEqual({ host: '::1', port: server.port });
    const query = createDnsQuery({ timeoutMs: 2000 });
    const dmarc = await query(resolver!, '_dmarc.six.example', 'TXT');
    expect(dmarc.answers).toEqual([
      { name: '_dmarc.six.example', type: 'TXT', ttl: 120, data: ['v=DMARC1; p=reject'] },
    ]);
    const spf = await query(resolver!, 'six.example', 'TXT');
    expect(spf.answers[0]!.data.join('')).toBe(long);
  });
});
