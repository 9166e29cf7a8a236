// The watch's politeness on a fake clock: the cap never lets more than its rate through in any one-second
// window, a watcher over two resolvers keeps each under its own cap while using it, and when the cap cannot
// ask every record at its TTL (thousands of domains) a pending confirmation and the working records go first,
// so a removal is still told within about a TTL while records never set up wait their turn (within the ceiling).
import { afterEach, describe, expect, it } from 'vitest';
import { DnsWatcher } from '../../../../main/core/dnswatch/dnsWatcher.ts';
import { QueryBucket } from '../../../../main/core/dnswatch/rateCap.ts';
import { WatchResolver } from '../../../../main/core/dnswatch/watchResolver.ts';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { fakeClock, fakeDns, type FakeDns } from './fakeDns.ts';

const DMARC = 'v=DMARC1; p=reject; rua=mailto:d@example.net';

/** The most events of `times` (ms) inside any window of `windowMs`. */
function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('the query bucket', () => {
  it('lets at most its rate through in any one-second window, and uses it', async () => {
    const clock = fakeClock();
    const bucket = new QueryBucket(50, clock);
    const times: number[] = [];
    for (let i = 0; i < 1000; i++) {
      await bucket.take();
      times.push(clock.now());
    }
    const seconds = (times.at(-1)! - times[0]!) / 1000;
    expect(seconds).toBeGreaterThanOrEqual((1000 - 50) / 50 - 0.1);
    expect(seconds).toBeLessThanOrEqual(1000 / 50);
    expect(busiestWindow(times, 1000)).toBe(50);
    expect(busiestWindow(times, 10_000)).toBeLessThanOrEqual(50 * 10);
  });
});

describe('the watch under its rate cap', () => {
  let mirror: Mirror;
  let dns: FakeDns;
  let clock: ReturnType<typeof fakeClock>;
  let watcher: DnsWatcher;
  const perServer = new Map<number, number[]>();

  afterEach(() => mirror?.close());

  function setUp(domains: number, o: { servers: number; rate: number; ceiling: number }) {
    clock = fakeClock();
    dns = fakeDns(60);
    perServer.clear();
    const query = dns.query;
    dns.query = (server, name, type) => {
      const list = perServer.get(server.port) ?? [];
      list.push(clock.now());
      perServer.set(server.port, list);
      return query(server, name, type);
    };
    mirror = openMirror(':memory:', { clock });
    const account = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://api.example.test/api/v1' });
    const names = Array.from({ length: domains }, (_, i) => `d${i}.example`);
    mirror.writeSignal({
      accountId: account.id,
      domainId: null,
      signal: 'domains',
      payload: names.map((fqdn, i) => ({ id: i + 1, fqdn })),
      fetchedAt: clock.now(),
    });
    for (const d of names) {
      dns.txt.set(`_dmarc.${d}`, [DMARC]);
      dns.txt.set(d, ['v=spf1 ip4:192.0.2.0/24 -all']);
    }
    const servers = Array.from({ length: o.servers }, (_, i) => ({ host: '127.0.0.1', port: 5301 + i }));
    const resolver = new WatchResolver({ servers, query: dns.query, clock, ratePerSecond: o.rate });
    watcher = new DnsWatcher({
      mirror,
      resolver,
      clock,
      cadence: { floorSeconds: 60, ceilingSeconds: o.ceiling, concurrency: 64 },
      queriesPerSecond: o.rate * o.servers,
    });
    return account.id;
  }

  async function runFor(seconds: number, until?: () => boolean): Promise<number> {
    const start = clock.now();
    for (let s = 0; s < seconds; s++) {
      await watcher.tick();
      clock.advance(1000);
      if (until?.()) break;
    }
    return (clock.now() - start) / 1000;
  }

  it('keeps each of two resolvers under its own cap, and uses both', async () => {
    setUp(1000, { servers: 2, rate: 20, ceiling: 3600 });
    const seconds = await runFor(180);
    expect([...perServer.keys()].sort()).toEqual([5301, 5302]);
    for (const times of perServer.values()) {
      expect(busiestWindow(times, 1000)).toBeLessThanOrEqual(20);
      expect(busiestWindow(times, 10_000)).toBeLessThanOrEqual(20 * 10);
      // 5,000 records want ~76 queries a second: the cap is the limit, and it is used.
      expect(times.length).toBeGreaterThanOrEqual(0.9 * 20 * seconds);
    }
  });

  it('tells a removal within about a TTL even when the cap cannot keep up with every record', async () => {
    // 400 domains, 2,000 records at 20 queries a second: a full round takes 100 s, longer than the TTL.
    const accountId = setUp(400, { servers: 1, rate: 20, ceiling: 300 });
    await runFor(200);
    dns.txt.delete('_dmarc.d200.example');
    const open = () => mirror.listAlerts({ open: true }).filter((a) => a.rule === 'protocol_disconnected');
    const seconds = await runFor(600, () => open().length > 0);
    expect(open().map((a) => a.fqdn)).toEqual(['d200.example']);
    // The working records (800) come round every 40 s, the two confirmations go before the backlog:
    // TTL 60 s (+10 % jitter) + 2 × 15 s. Behind the backlog it would be a round and two more waits.
    expect(seconds).toBeLessThanOrEqual(66 + 30 + 5);
    // …and records never set up are still asked, within the ceiling.
    const since = clock.now() - 300_000;
    await runFor(300);
    for (const id of [1, 150, 399]) {
      const bimi = mirror.dnsWatchRecords(accountId, id).find((r) => r.protocol === 'bimi')!;
      expect(Date.parse(bimi.checkedAt)).toBeGreaterThan(since);
    }
  });
});
