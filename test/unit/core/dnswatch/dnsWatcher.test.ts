// The DNS watch on a fake zone and a fake clock: alerts from DNS alone, confirmation against flapping, unknown
// answers never a disconnect, invalid records failing with the reason in words, restore, TTL pacing, rate cap.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DnsWatcher } from '../../../../main/core/dnswatch/dnsWatcher.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { DMARC, fakeWatch, type fakeClock, type FakeDns } from './fakeDns.ts';

let mirror: Mirror;
let dns: FakeDns;
let clock: ReturnType<typeof fakeClock>;
let watcher: DnsWatcher;
let accountId: number;

function setUp(
  domains: string[],
  options: { rate?: number; floor?: number; ceiling?: number; ttl?: number } = {},
) {
  ({ clock, dns, mirror, accountId, watcher } = fakeWatch(domains, options));
}

/** Ticks once a second of fake time for `seconds`; returns when (ms after start) an alert first opened. */
async function runFor(seconds: number): Promise<void> {
  for (let s = 0; s < seconds; s++) {
    await watcher.tick();
    clock.advance(1000);
  }
}

/** Every disconnect alert ever raised, open or not. */
function everRaised() {
  return mirror.listAlerts({}).filter((a) => a.rule === 'protocol_disconnected');
}

function openAlerts() {
  return mirror.listAlerts({ open: true }).filter((a) => a.rule === 'protocol_disconnected');
}

afterEach(() => mirror?.close());

describe('the DNS watch', () => {
  beforeEach(() => setUp(['a.example']));

  it('takes its first answers as a baseline: absent optional records raise nothing', async () => {
    await runFor(5);
    const records = mirror.dnsWatchRecords(accountId, 1);
    expect(records.map((r) => [r.protocol, r.answer]).sort()).toEqual([
      ['bimi', 'absent'],
      ['dmarc', 'present'],
      ['mta_sts', 'absent'],
      ['spf', 'present'],
      ['tls_rpt', 'absent'],
    ]);
    const dmarc = records.find((r) => r.protocol === 'dmarc')!;
    expect(dmarc).toMatchObject({
      name: '_dmarc.a.example',
      value: DMARC,
      ttl: 60,
      resolver: '127.0.0.1:53',
    });
    expect(openAlerts()).toEqual([]);
  });

  it('raises the disconnect alert within the TTL plus the confirmation checks of a removal, from DNS alone', async () => {
    await runFor(5);
    const removedAt = clock.now();
    dns.txt.delete('_dmarc.a.example');
    let raisedAfter: number | null = null;
    for (let s = 0; s < 180 && raisedAfter === null; s++) {
      await watcher.tick();
      if (openAlerts().length > 0) raisedAfter = clock.now() - removedAt;
      clock.advance(1000);
    }
    expect(raisedAfter).not.toBeNull();
    // 60 s TTL (+ up to 10 % jitter) and two confirmations 15 s apart: well within 2 minutes.
    expect(raisedAfter!).toBeLessThanOrEqual((66 + 30 + 2) * 1000);
    const [alert] = openAlerts();
    expect(alert).toMatchObject({ severity: 'critical', title: 'DMARC record of a.example disconnected' });
    expect(alert!.body).toContain("Authwatch's own DNS watch");
  });

  it('does not alert on a flapping answer (present, absent, present)', async () => {
    await runFor(5);
    dns.txt.delete('_dmarc.a.example');
    // Until the first absent answer comes in…
    for (let s = 0; s < 90; s++) {
      await watcher.tick();
      clock.advance(1000);
      if (mirror.dnsWatchRecords(accountId, 1).find((r) => r.protocol === 'dmarc')?.answer === 'absent')
        break;
    }
    // …then the record answers again before the confirmation.
    dns.txt.set('_dmarc.a.example', [DMARC]);
    await runFor(300);
    expect(everRaised()).toEqual([]);
  });

  it('does not alert on answers that keep alternating (resolvers disagreeing)', async () => {
    await runFor(5);
    let n = 0;
    dns.intercept = (server, name) =>
      name === '_dmarc.a.example' && n++ % 2 === 0
        ? { rcode: 'NXDOMAIN', answers: [], negativeTtl: 60, server }
        : undefined;
    await runFor(15 * 60);
    expect(n).toBeGreaterThan(10);
    expect(everRaised()).toEqual([]);
  });

  it('never takes SERVFAIL or a timeout for a disconnect, and says why the answer is unknown', async () => {
    await runFor(5);
    dns.mode = 'servfail';
    await runFor(5 * 60);
    expect(everRaised()).toEqual([]);
    const dmarc = mirror.dnsWatchRecords(accountId, 1).find((r) => r.protocol === 'dmarc')!;
    expect(dmarc).toMatchObject({
      answer: 'unknown',
      reason: 'the resolver answered SERVFAIL',
      state: 'connected',
    });
    dns.mode = 'timeout';
    await runFor(5 * 60);
    expect(everRaised()).toEqual([]);
    expect(mirror.dnsWatchRecords(accountId, 1).find((r) => r.protocol === 'dmarc')!.reason).toBe(
      'the resolver did not answer in time',
    );
  });

  it('judges a present but invalid record as failing, with the reason in words', async () => {
    await runFor(5);
    dns.txt.set('_dmarc.a.example', [DMARC, 'v=DMARC1; p=none']);
    await runFor(180);
    const dmarc = mirror.dnsWatchRecords(accountId, 1).find((r) => r.protocol === 'dmarc')!;
    expect(dmarc).toMatchObject({ answer: 'invalid', state: 'disconnected' });
    expect(dmarc.reason).toBe('2 DMARC records are published; receivers ignore them all');
    expect(openAlerts()).toHaveLength(1);
  });

  it('judges an SPF tree over 10 lookups as invalid', async () => {
    await runFor(5);
    const includes = Array.from({ length: 11 }, (_, i) => `include:s${i}.example`).join(' ');
    dns.txt.set('a.example', [`v=spf1 ${includes} -all`]);
    for (let i = 0; i < 11; i++) dns.txt.set(`s${i}.example`, [`v=spf1 ip4:198.51.100.${i} -all`]);
    await runFor(180);
    const spf = mirror.dnsWatchRecords(accountId, 1).find((r) => r.protocol === 'spf')!;
    expect(spf.answer).toBe('invalid');
    expect(spf.reason).toMatch(/lookup/i);
  });

  it('resolves the episode with a restored notice when the record is back', async () => {
    await runFor(5);
    dns.txt.delete('_dmarc.a.example');
    await runFor(180);
    expect(openAlerts()).toHaveLength(1);
    dns.txt.set('_dmarc.a.example', [DMARC]);
    await runFor(180);
    expect(openAlerts()).toEqual([]);
    const restored = mirror.listAlerts({}).filter((a) => a.rule === 'protocol_restored');
    expect(restored).toHaveLength(1);
  });

  it('follows a CNAME delegation to the hosted record', async () => {
    dns.txt.delete('_dmarc.a.example');
    dns.cname.set('_dmarc.a.example', 'a.example.dmarc.hosted.example');
    dns.txt.set('a.example.dmarc.hosted.example', [DMARC]);
    await runFor(5);
    const dmarc = mirror.dnsWatchRecords(accountId, 1).find((r) => r.protocol === 'dmarc')!;
    expect(dmarc).toMatchObject({ answer: 'present', value: DMARC });
  });

  it('asks each record again when its TTL runs out, not sooner', async () => {
    await runFor(5);
    const asked = dns.asked;
    await runFor(50);
    expect(dns.asked).toBe(asked);
    await runFor(20);
    expect(dns.asked).toBeGreaterThan(asked);
  });
});

describe('the DNS watch’s ceiling', () => {
  it('asks the server at least once per ceiling and alerts on a removal, however long the TTL', async () => {
    setUp(['a.example'], { floor: 5, ceiling: 10, ttl: 86_400 });
    await runFor(5);
    dns.txt.delete('_dmarc.a.example');
    const asked = dns.asked;
    await runFor(100);
    // About ten seconds apart (plus jitter), five records: a day-long cache would have sent none.
    expect(dns.asked - asked).toBeGreaterThanOrEqual(5 * 8);
    expect(openAlerts()).toHaveLength(1);
  });

  it('notices a record published where the negative answer said 2^31−1 seconds', async () => {
    setUp(['a.example'], { floor: 5, ceiling: 10, ttl: 0x7fffffff });
    await runFor(5);
    dns.txt.set('_mta-sts.a.example', ['v=STSv1; id=1']);
    await runFor(30);
    const sts = mirror.dnsWatchRecords(accountId, 1).find((r) => r.protocol === 'mta_sts')!;
    expect(sts.answer).toBe('present');
  });
});

describe('a CNAME loop', () => {
  it.each([1, 2, 4])('of %i names is unknown: no disconnect, the record keeps its state', async (length) => {
    setUp(['a.example']);
    await runFor(5);
    dns.txt.delete('_dmarc.a.example');
    const names = Array.from({ length }, (_, i) => (i === 0 ? '_dmarc.a.example' : `n${i}.hosted.example`));
    names.forEach((n, i) => dns.cname.set(n, names[(i + 1) % length]!));
    await runFor(300);
    expect(everRaised()).toEqual([]);
    const dmarc = mirror.dnsWatchRecords(accountId, 1).find((r) => r.protocol === 'dmarc')!;
    expect(dmarc).toMatchObject({ answer: 'unknown', state: 'connected' });
    expect(dmarc.reason).toMatch(/loops/);
  });
});

describe('the DNS watch at scale', () => {
  it('keeps under its per-resolver rate cap with 1,000 domains', async () => {
    setUp(
      Array.from({ length: 1000 }, (_, i) => `d${i}.example`),
      { rate: 50, floor: 60 },
    );
    const start = clock.now();
    await runFor(10 * 60);
    const seconds = (clock.now() - start) / 1000;
    // Every query counted at the server: never more than the cap allows (one second's burst on top).
    expect(dns.asked).toBeLessThanOrEqual(50 * seconds + 50);
    // …and the cap was used: every record was asked at least once in ten minutes.
    expect(dns.asked).toBeGreaterThanOrEqual(5000);
  });
});
