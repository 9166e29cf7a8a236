/**
 * The reference world's parts for the SPF and blocklist checks, read over real DNS (UDP, TCP when truncated)
 * through the DNS watch's own client: an include tree the sandbox grows past 10 lookups, and a test DNSBL
 * zone where the sandbox lists and delists an address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsQuery } from '../../../main/core/dnswatch/dnsQuery.ts';
import { WatchResolver } from '../../../main/core/dnswatch/watchResolver.ts';
import { dnsblQueryName, readDnsblAnswer } from '../../../main/core/livechecks/dnsblAnswer.ts';
import { dnsblZone } from '../../../shared/email-auth/dnsblZones.ts';
import {
  spfCostChanges,
  spfCostChangeWords,
  spfLookupTree,
} from '../../../shared/email-auth/spfLookupTree.ts';
import { TEST_DNSBL_ZONE } from '../../../service/dns/testDnsbl.ts';
import { startZoneDnsServer, type ZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { startService, stopService, type ServiceHarness } from '../../support/serviceHarness.ts';

let svc: ServiceHarness;
let dns: ZoneDnsServer;

/** A fresh resolver (no cache between steps), as the watch builds it. */
function resolver(): WatchResolver {
  return new WatchResolver({
    servers: [{ host: '127.0.0.1', port: dns.port }],
    query: createDnsQuery({ timeoutMs: 2000 }),
    clock: { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
    ratePerSecond: 1000,
  });
}

beforeAll(async () => {
  svc = await startService();
  dns = await startZoneDnsServer({ db: svc.db, port: 0, ttl: 60 });
  await svc.sandbox('PUT', '/dns/spf-grows.example/mx', { value: '10 mx1.spf-grows.example' });
  await svc.sandbox('PUT', '/dns/spf-grows.example/spf', {
    value: 'v=spf1 mx include:_spf.vendor.example include:_spf.other.example ~all',
  });
  await svc.sandbox('PUT', '/spf-include/_spf.other.example', { lookups: 2 });
});
afterAll(async () => {
  await dns?.close();
  await stopService(svc);
});

describe('the SPF include tree the sandbox grows', () => {
  it('costs what was asked, and passing 10 lookups is a permerror naming the include that grew', async () => {
    expect((await svc.sandbox('PUT', '/spf-include/_spf.vendor.example', { lookups: 3 })).status).toBe(200);
    const before = await spfLookupTree('spf-grows.example', resolver().asDnsResolve());
    expect([before.lookups, before.status]).toEqual([6, 'ok']);

    await svc.sandbox('PUT', '/spf-include/_spf.vendor.example', { lookups: 8 });
    const after = await spfLookupTree('spf-grows.example', resolver().asDnsResolve());
    expect([after.lookups, after.status]).toEqual([11, 'permerror']);
    expect(spfCostChanges(before, after).map(spfCostChangeWords)).toEqual([
      'include:_spf.vendor.example now costs 8 lookups, was 3',
    ]);

    // Shrinking removes the nested records of the bigger tree: the count is exact again.
    await svc.sandbox('PUT', '/spf-include/_spf.vendor.example', { lookups: 3 });
    expect((await spfLookupTree('spf-grows.example', resolver().asDnsResolve())).lookups).toBe(6);
  });

  it('refuses a tree of no lookups or a bad name', async () => {
    expect((await svc.sandbox('PUT', '/spf-include/_spf.vendor.example', { lookups: 0 })).status).toBe(422);
    expect((await svc.sandbox('PUT', '/spf-include/not a name', { lookups: 2 })).status).toBe(422);
  });
});

describe('the test DNSBL zone', () => {
  const zone = dnsblZone(TEST_DNSBL_ZONE);
  async function ask(ip: string) {
    const r = resolver();
    const name = dnsblQueryName(ip, zone.zone);
    const a = await r.lookup(name, 'A');
    return readDnsblAnswer(zone, a, a.kind === 'records' ? await r.lookup(name, 'TXT') : null);
  }

  it('lists and delists an address with its reason; an unlisted one is clear', async () => {
    await svc.sandbox('PUT', '/dnsbl/192.0.2.55', { listed: true, reason: 'Seen at 42 spam traps' });
    expect(await ask('192.0.2.55')).toEqual({
      kind: 'listed',
      codes: ['127.0.0.2'],
      reason: 'Seen at 42 spam traps',
    });
    expect(await ask('192.0.2.56')).toEqual({ kind: 'clear' });
    await svc.sandbox('PUT', '/dnsbl/192.0.2.55', { listed: false });
    expect(await ask('192.0.2.55')).toEqual({ kind: 'clear' });
    // RFC 5782 §5: the test entry is always there.
    expect((await ask('127.0.0.2')).kind).toBe('listed');
  });

  it('an answer outside 127.0.0.0/8 is an error, not a listing', async () => {
    await svc.sandbox('PUT', '/dnsbl/192.0.2.57', { listed: true, code: '198.51.100.1' });
    expect((await ask('192.0.2.57')).kind).toBe('error');
  });
});
