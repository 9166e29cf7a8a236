// A resolver that lies about every name (NXDOMAIN for all: a captive portal, a split-horizon resolver, a
// machine without internet — this one) gives the watch no evidence: no record is taken as removed, no state
// changes, no alert, and the watch says why. A domain whose own name stops resolving while the others resolve
// is the finding: its own alert, and its records no evidence of removal.
import { afterEach, describe, expect, it } from 'vitest';
import { DnsWatcher } from '../../../../main/core/dnswatch/dnsWatcher.ts';
import { WatchResolver } from '../../../../main/core/dnswatch/watchResolver.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { DMARC, fakeWatch, type fakeClock, type FakeDns } from './fakeDns.ts';

let mirror: Mirror;
let dns: FakeDns;
let clock: ReturnType<typeof fakeClock>;
let watcher: DnsWatcher;
let accountId: number;
const DOMAINS = Array.from({ length: 12 }, (_, i) => `d${i + 1}.example`);
function setUp(domains = DOMAINS) {
  ({ clock, dns, mirror, accountId, watcher } = fakeWatch(domains, { ceiling: 300 }));
}

async function runFor(seconds: number): Promise<void> {
  for (let s = 0; s < seconds; s++) {
    await watcher.tick();
    clock.advance(1000);
  }
}

const records = (domainId: number) => mirror.dnsWatchRecords(accountId, domainId);
const allRecords = () => DOMAINS.flatMap((_, i) => records(i + 1));
const states = () => allRecords().map((r) => `${r.name} ${r.state} ${r.stateSince}`);

afterEach(() => mirror?.close());

describe('a resolver that answers NXDOMAIN for every name', () => {
  it('from the start: no record judged, every answer unknown, no alert, and the watch says why', async () => {
    setUp();
    dns.mode = 'lie';
    await runFor(10 * 60);
    expect(allRecords()).toHaveLength(60);
    for (const r of allRecords()) {
      expect(r).toMatchObject({ answer: 'unknown', state: null });
      expect(r.reason).toBe('the resolver cannot be trusted');
    }
    expect(mirror.listAlerts({})).toEqual([]);
    expect(watcher.trust()).toEqual({
      trusted: false,
      reason: '127.0.0.1:53 answers that the DNS root itself does not exist (NXDOMAIN)',
      resolver: '127.0.0.1:53',
    });
  });

  it('after a good baseline: nothing removed, no state changes, no alert', async () => {
    setUp();
    await runFor(10);
    const before = states();
    expect(
      allRecords()
        .filter((r) => r.protocol === 'dmarc')
        .every((r) => r.state === 'connected'),
    ).toBe(true);
    dns.mode = 'lie';
    await runFor(15 * 60);
    expect(states()).toEqual(before);
    expect(mirror.listAlerts({})).toEqual([]);
    expect(watcher.trust().trusted).toBe(false);
    // A trustworthy answer again: the watch believes it again.
    dns.mode = 'answer';
    await runFor(10 * 60);
    expect(watcher.trust()).toEqual({ trusted: true });
    expect(records(1).find((r) => r.protocol === 'dmarc')).toMatchObject({ answer: 'present' });
  });

  it('that answers the root but no watched domain: no evidence either', async () => {
    setUp();
    await runFor(10);
    const before = states();
    dns.intercept = (server, name) =>
      name === '' ? undefined : { rcode: 'NXDOMAIN', answers: [], negativeTtl: 60, server };
    await runFor(15 * 60);
    expect(states()).toEqual(before);
    expect(mirror.listAlerts({})).toEqual([]);
    expect(watcher.trust()).toMatchObject({
      trusted: false,
      reason:
        '127.0.0.1:53 answers that all 12 watched domains do not exist (NXDOMAIN), though the service watches them',
    });
  });
});

describe('a resolver turning liar while the domains come due at different times', () => {
  it('raises no domain alert for the first domains its lies reach, then says it cannot be trusted', async () => {
    setUp(['d1.example', 'd2.example']);
    // d2's records have an hour-long TTL (asked again at the 300 s ceiling): the lies reach it minutes after
    // d1, whose NXDOMAIN would be confirmed in 30 s.
    let lying = false;
    dns.intercept = (server, name) => {
      if (lying && name !== '') return { rcode: 'NXDOMAIN', answers: [], negativeTtl: 60, server };
      if (!name.endsWith('d2.example')) return undefined;
      const values = dns.txt.get(name);
      return values
        ? {
            rcode: 'NOERROR',
            answers: values.map((v) => ({ name, type: 'TXT', ttl: 3600, data: [v] })),
            negativeTtl: null,
            server,
          }
        : { rcode: 'NXDOMAIN', answers: [], negativeTtl: 3600, server };
    };
    await runFor(10);
    lying = true;
    await runFor(4 * 60);
    expect(watcher.trust()).toEqual({ trusted: true });
    expect(mirror.listAlerts({})).toEqual([]);
    expect(records(1).find((r) => r.protocol === 'dmarc')).toMatchObject({
      answer: 'unknown',
      state: 'connected',
    });
    await runFor(6 * 60);
    expect(mirror.listAlerts({})).toEqual([]);
    expect(watcher.trust()).toMatchObject({ trusted: false });
  });
});

describe('a domain whose own name stops resolving while the others resolve', () => {
  const gone = 'd3.example';
  const expire = () => {
    for (const name of [...dns.txt.keys()])
      if (name === gone || name.endsWith(`.${gone}`)) dns.txt.delete(name);
  };

  it('raises its own alert once — not a removal of each record — and ends it when it resolves again', async () => {
    setUp();
    await runFor(10);
    expire();
    await runFor(10 * 60);
    const raised = mirror.listAlerts({});
    expect(raised.map((a) => [a.rule, a.fqdn, a.severity])).toEqual([
      ['domain_stopped_resolving', gone, 'critical'],
    ]);
    expect(raised[0]!.title).toBe(`${gone} no longer resolves`);
    expect(watcher.trust()).toEqual({ trusted: true });
    const dmarc = records(3).find((r) => r.protocol === 'dmarc')!;
    expect(dmarc).toMatchObject({ answer: 'unknown', state: 'connected' });
    expect(dmarc.reason).toBe(`${gone} itself does not resolve (NXDOMAIN)`);
    // The others are watched as before.
    expect(records(1).find((r) => r.protocol === 'dmarc')).toMatchObject({ answer: 'present' });

    dns.txt.set(`_dmarc.${gone}`, [DMARC]);
    dns.txt.set(gone, ['v=spf1 ip4:192.0.2.0/24 -all']);
    await runFor(10 * 60);
    expect(mirror.listAlerts({ open: true })).toEqual([]);
    expect(mirror.listAlerts({})).toHaveLength(1);
  });

  it('keeps one episode across a restart, and ends it after one when the domain resolves again', async () => {
    setUp();
    await runFor(10);
    expire();
    await runFor(5 * 60);
    expect(mirror.listAlerts({ open: true }).map((a) => a.rule)).toEqual(['domain_stopped_resolving']);
    const restart = () => {
      const resolver = new WatchResolver({
        servers: [{ host: '127.0.0.1', port: 53 }],
        query: dns.query,
        clock,
        ratePerSecond: 200,
        maxCacheSeconds: 300,
      });
      watcher = new DnsWatcher({
        mirror,
        resolver,
        clock,
        cadence: { floorSeconds: 30, ceilingSeconds: 300, concurrency: 16 },
        queriesPerSecond: 200,
      });
    };
    restart();
    await runFor(5 * 60);
    expect(mirror.listAlerts({}).map((a) => [a.rule, a.resolvedAt])).toEqual([
      ['domain_stopped_resolving', null],
    ]);
    dns.txt.set(`_dmarc.${gone}`, [DMARC]);
    dns.txt.set(gone, ['v=spf1 ip4:192.0.2.0/24 -all']);
    restart();
    await runFor(60);
    expect(mirror.listAlerts({ open: true })).toEqual([]);
    expect(mirror.listAlerts({})).toHaveLength(1);
  });

  it('is a baseline, not news, when the domain never resolved', async () => {
    setUp();
    expire();
    await runFor(10 * 60);
    expect(mirror.listAlerts({})).toEqual([]);
  });
});
