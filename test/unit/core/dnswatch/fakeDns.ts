/**
 * A DNS server in memory for the watch's tests: TXT records by name with one TTL, NXDOMAIN for the rest,
 * SERVFAIL or silence on demand, and a count of the questions it was asked.
 */
import type { DnsQuery, DnsReply, DnsServer } from '../../../../main/core/dnswatch/dnsQuery.ts';
import { DnsWatcher } from '../../../../main/core/dnswatch/dnsWatcher.ts';
import { WatchResolver } from '../../../../main/core/dnswatch/watchResolver.ts';
import { openMirror } from '../../../support/openMirror.ts';

export interface FakeDns {
  query: DnsQuery;
  txt: Map<string, string[]>;
  cname: Map<string, string>;
  ttl: number;
  /** lie: NXDOMAIN for every name, the root too (a captive portal, this machine's own resolver). */
  mode: 'answer' | 'servfail' | 'timeout' | 'lie';
  asked: number;
  /** Answers instead of the zone when it returns a reply. */
  intercept: ((server: DnsServer, name: string) => DnsReply | undefined) | null;
}

export function fakeDns(ttl = 60): FakeDns {
  const dns: FakeDns = {
    txt: new Map(),
    cname: new Map(),
    ttl,
    mode: 'answer',
    asked: 0,
    intercept: null,
    query: async (server: DnsServer, name: string, type): Promise<DnsReply> => {
      dns.asked++;
      const intercepted = dns.intercept?.(server, name);
      if (intercepted) return intercepted;
      if (dns.mode === 'timeout') throw Object.assign(new Error('timeout'), { code: 'ETIMEOUT' });
      if (dns.mode === 'servfail') return { rcode: 'SERVFAIL', answers: [], negativeTtl: null, server };
      if (dns.mode === 'lie') return { rcode: 'NXDOMAIN', answers: [], negativeTtl: null, server };
      if (name === '' && type === 'NS') {
        const ns = { name: '', type: 'NS', ttl: 518_400, data: ['a.root-servers.net'] };
        return { rcode: 'NOERROR', answers: [ns], negativeTtl: null, server };
      }
      const answers: DnsReply['answers'] = [];
      let owner = name.toLowerCase();
      // The chain as a recursive resolver gives it (at most 8 names: a loop is cut there).
      for (
        let hop = 0, target = dns.cname.get(owner);
        target && hop < 8;
        hop++, target = dns.cname.get(owner)
      ) {
        answers.push({ name: owner, type: 'CNAME', ttl: dns.ttl, data: [target] });
        owner = target;
      }
      const values = type === 'TXT' ? dns.txt.get(owner) : undefined;
      if (values && values.length > 0) {
        answers.push(...values.map((v) => ({ name: owner, type: 'TXT', ttl: dns.ttl, data: [v] })));
        return { rcode: 'NOERROR', answers, negativeTtl: null, server };
      }
      return { rcode: dns.txt.has(owner) ? 'NOERROR' : 'NXDOMAIN', answers, negativeTtl: dns.ttl, server };
    },
  };
  return dns;
}

/** A clock that stands still until a test (or a sleep) moves it. */
export function fakeClock(start = Date.parse('2026-06-15T12:00:00Z')) {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += Math.max(0, ms);
    },
    random: () => 0.5,
    advance(ms: number) {
      t += ms;
    },
  };
}

/** The DMARC record every domain of a fakeWatch() publishes. */
export const DMARC = 'v=DMARC1; p=reject; rua=mailto:d@example.net';

/**
 * A watcher over a fresh mirror holding `domains` (ids 1…n of one account), each publishing DMARC and SPF in a
 * fake zone, on a fake clock.
 */
export function fakeWatch(
  domains: string[],
  options: { rate?: number; floor?: number; ceiling?: number; ttl?: number } = {},
) {
  const clock = fakeClock();
  const dns = fakeDns(options.ttl ?? 60);
  const mirror = openMirror(':memory:', { clock });
  const accountId = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://api.example.test/api/v1' }).id;
  mirror.writeSignal({
    accountId,
    domainId: null,
    signal: 'domains',
    payload: domains.map((fqdn, i) => ({ id: i + 1, fqdn })),
    fetchedAt: clock.now(),
  });
  for (const d of domains) {
    dns.txt.set(`_dmarc.${d}`, [DMARC]);
    dns.txt.set(d, ['v=spf1 ip4:192.0.2.0/24 -all']);
  }
  const rate = options.rate ?? 200;
  const ceiling = options.ceiling ?? 3600;
  const resolver = new WatchResolver({
    servers: [{ host: '127.0.0.1', port: 53 }],
    query: dns.query,
    clock,
    ratePerSecond: rate,
    maxCacheSeconds: ceiling,
  });
  const watcher = new DnsWatcher({
    mirror,
    resolver,
    clock,
    cadence: { floorSeconds: options.floor ?? 30, ceilingSeconds: ceiling, concurrency: 16 },
    queriesPerSecond: rate,
  });
  return { clock, dns, mirror, accountId, watcher };
}
