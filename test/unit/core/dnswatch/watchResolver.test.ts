// The watch's resolver: no answer is kept past the watch's ceiling (however long its TTL, positive or
// negative), and a CNAME loop of any length is unknown — never evidence that the record is gone.
import { beforeEach, describe, expect, it } from 'vitest';
import { WatchResolver } from '../../../../main/core/dnswatch/watchResolver.ts';
import { fakeClock, fakeDns, type FakeDns } from './fakeDns.ts';

let dns: FakeDns;
let clock: ReturnType<typeof fakeClock>;
let resolver: WatchResolver;

beforeEach(() => {
  clock = fakeClock();
  dns = fakeDns(86_400);
  resolver = new WatchResolver({
    servers: [{ host: '127.0.0.1', port: 53 }],
    query: dns.query,
    clock,
    ratePerSecond: 100,
    maxCacheSeconds: 10,
  });
});

describe('the watch resolver’s cache', () => {
  it('keeps a day-long answer no longer than the ceiling', async () => {
    dns.txt.set('_dmarc.a.example', ['v=DMARC1; p=reject']);
    await resolver.lookup('_dmarc.a.example', 'TXT');
    clock.advance(5_000);
    await resolver.lookup('_dmarc.a.example', 'TXT');
    expect(dns.asked).toBe(1);
    clock.advance(6_000);
    dns.txt.delete('_dmarc.a.example');
    const later = await resolver.lookup('_dmarc.a.example', 'TXT');
    expect(dns.asked).toBe(2);
    expect(later.kind).toBe('absent');
  });

  it('keeps a negative answer whose SOA minimum is 2^31−1 no longer than the ceiling', async () => {
    dns.ttl = 0x7fffffff;
    expect(await resolver.lookup('_dmarc.a.example', 'TXT')).toMatchObject({ kind: 'absent' });
    dns.txt.set('_dmarc.a.example', ['v=DMARC1; p=reject']);
    clock.advance(11_000);
    expect(await resolver.lookup('_dmarc.a.example', 'TXT')).toMatchObject({ kind: 'records' });
  });
});

describe('CNAME loops', () => {
  it('calls a CNAME to itself unknown, not absent', async () => {
    dns.cname.set('_dmarc.a.example', '_dmarc.a.example');
    const lookup = await resolver.lookup('_dmarc.a.example', 'TXT');
    expect(lookup).toMatchObject({ kind: 'unknown' });
    expect(lookup.kind === 'unknown' && lookup.reason).toMatch(/loops/);
  });

  it.each([2, 3, 5])('calls a loop of %i names unknown', async (length) => {
    const names = Array.from({ length }, (_, i) => (i === 0 ? '_dmarc.a.example' : `n${i}.hosted.example`));
    names.forEach((n, i) => dns.cname.set(n, names[(i + 1) % length]!));
    expect(await resolver.lookup('_dmarc.a.example', 'TXT')).toMatchObject({ kind: 'unknown' });
  });

  it('calls a loop unknown when an authoritative server gives it one link at a time', async () => {
    // Each answer carries one CNAME and no SOA: the resolver chases the target itself.
    const links: Record<string, string> = { 'a.example': 'b.example', 'b.example': 'a.example' };
    dns.intercept = (server, name) => ({
      rcode: 'NOERROR',
      answers: [{ name, type: 'CNAME', ttl: 60, data: [links[name]!] }],
      negativeTtl: null,
      server,
    });
    expect(await resolver.lookup('a.example', 'TXT')).toMatchObject({ kind: 'unknown' });
  });

  it('still follows a chain that ends in a record', async () => {
    dns.cname.set('_dmarc.a.example', 'x.hosted.example');
    dns.cname.set('x.hosted.example', 'y.hosted.example');
    dns.txt.set('y.hosted.example', ['v=DMARC1; p=none']);
    expect(await resolver.lookup('_dmarc.a.example', 'TXT')).toMatchObject({
      kind: 'records',
      cnames: ['x.hosted.example', 'y.hosted.example'],
    });
  });
});

describe('questions in flight', () => {
  it('asks once when many probes want the same MX host at the same moment', async () => {
    dns.txt.set('mx.shared.example', ['v=spf1 -all']);
    const answers = await Promise.all(
      Array.from({ length: 32 }, () => resolver.lookup('MX.shared.example', 'TXT')),
    );
    expect(dns.asked).toBe(1);
    expect(new Set(answers.map((a) => a.kind))).toEqual(new Set(['records']));
  });

  it('asks again for a fresh look, even while the same question is out', async () => {
    dns.txt.set('_dmarc.a.example', ['v=DMARC1; p=reject']);
    await Promise.all([
      resolver.lookup('_dmarc.a.example', 'TXT'),
      resolver.lookup('_dmarc.a.example', 'TXT', { fresh: true }),
    ]);
    expect(dns.asked).toBe(2);
  });

  it('does not keep a failure: the next look asks again', async () => {
    dns.mode = 'servfail';
    await Promise.all([
      resolver.lookup('_dmarc.a.example', 'TXT'),
      resolver.lookup('_dmarc.a.example', 'TXT'),
    ]);
    expect(dns.asked).toBe(1);
    dns.mode = 'answer';
    dns.txt.set('_dmarc.a.example', ['v=DMARC1; p=reject']);
    expect(await resolver.lookup('_dmarc.a.example', 'TXT')).toMatchObject({ kind: 'records' });
    expect(dns.asked).toBe(2);
  });
});
