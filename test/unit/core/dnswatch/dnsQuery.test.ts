// The watch's wire client against a real DNS server on 127.0.0.1 (the reference service's zone): TTLs of
// positive and negative answers, CNAME chains, truncated UDP answers fetched again over TCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsQuery } from '../../../../main/core/dnswatch/dnsQuery.ts';
import { openServiceDb, type ServiceDb } from '../../../../service/db/openServiceDb.ts';
import { writeZoneRecords } from '../../../../service/dns/sandboxZone.ts';
import { startZoneDnsServer, type ZoneDnsServer } from '../../../../service/dns/zoneDnsServer.ts';

let db: ServiceDb;
let server: ZoneDnsServer;
const query = createDnsQuery({ timeoutMs: 2000 });
const long = `v=spf1 ${Array.from({ length: 40 }, (_, i) => `ip4:198.51.100.${i}`).join(' ')} -all`;

beforeAll(async () => {
  db = openServiceDb(':memory:');
  const now = new Date();
  const put = (name: string, rrtype: 'TXT' | 'CNAME', values: string[]) =>
    writeZoneRecords(db, { zone: 'q.example', name, rrtype, values, now });
  put('_dmarc.q.example', 'TXT', ['v=DMARC1; p=none']);
  put('q.example', 'TXT', [long]);
  put('_mta-sts.q.example', 'CNAME', ['sts.q.example']);
  put('sts.q.example', 'TXT', ['v=STSv1; id=1']);
  server = await startZoneDnsServer({ db, port: 0, ttl: 300 });
});
afterAll(async () => {
  await server.close();
  db.close();
});

describe('the DNS watch wire client', () => {
  it('reads TXT records with their TTL', async () => {
    const reply = await query({ host: '127.0.0.1', port: server.port }, '_dmarc.q.example', 'TXT');
    expect(reply.rcode).toBe('NOERROR');
    expect(reply.answers).toEqual([
      { name: '_dmarc.q.example', type: 'TXT', ttl: 300, data: ['v=DMARC1; p=none'] },
    ]);
  });

  it('reads the negative-caching TTL of NXDOMAIN from the SOA', async () => {
    const reply = await query({ host: '127.0.0.1', port: server.port }, '_dmarc.none.q.example', 'TXT');
    expect(reply).toMatchObject({ rcode: 'NXDOMAIN', answers: [], negativeTtl: 300 });
  });

  it('gets a CNAME chain with the record at its end', async () => {
    const reply = await query({ host: '127.0.0.1', port: server.port }, '_mta-sts.q.example', 'TXT');
    expect(reply.answers.map((a) => [a.type, a.data[0]])).toEqual([
      ['CNAME', 'sts.q.example'],
      ['TXT', 'v=STSv1; id=1'],
    ]);
  });

  it('asks again over TCP when the UDP answer is truncated', async () => {
    const reply = await query({ host: '127.0.0.1', port: server.port }, 'q.example', 'TXT');
    expect(reply.answers[0]!.data.join('')).toBe(long);
  });

  it('rejects when nothing answers (a timeout, or the port refused)', async () => {
    const silent = createDnsQuery({ timeoutMs: 200 });
    // A UDP port on loopback nobody listens on: the datagram is dropped or refused.
    await expect(silent({ host: '127.0.0.1', port: 9 }, 'q.example', 'TXT')).rejects.toBeDefined();
  });
});
