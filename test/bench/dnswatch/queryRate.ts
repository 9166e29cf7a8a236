/**
 * Queries a second the DNS watch sends at N domains with the default settings, in real time over real UDP to
 * the reference service's DNS port (service/dns/zoneDnsServer.ts on 127.0.0.1, the sandbox zone holding each
 * domain's SPF and DMARC), counted at the server: the engine's DnsWatcher ticked once a second as the app's
 * scheduler does, for `seconds`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createDnsQuery } from '../../../main/core/dnswatch/dnsQuery.ts';
import { DnsWatcher } from '../../../main/core/dnswatch/dnsWatcher.ts';
import { WatchResolver } from '../../../main/core/dnswatch/watchResolver.ts';
import { DEFAULT_DNS_WATCH_SETTINGS } from '../../../main/core/dnswatch/watchSettings.ts';
import { openMirror } from '../../../main/core/mirror/index.ts';
import { systemClock } from '../../../shared/api/clock.ts';
import { openServiceDb } from '../../../service/db/openServiceDb.ts';
import { writeZoneRecords } from '../../../service/dns/sandboxZone.ts';
import { startZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { DMARC, SPF, fqdnOf } from './memoryZone.ts';

export interface QueryRate {
  domains: number;
  seconds: number;
  cap: number;
  /** Queries the server answered a second, on average. */
  perSecond: number;
  /** The most the server answered in one second. */
  busiestSecond: number;
  /** Records checked a second (a check may cost more than one query: SPF's includes, CNAMEs). */
  checksPerSecond: number;
  /** Answers the watch got that were not definite (timeouts, SERVFAIL): the server falling behind. */
  unknown: number;
}

/** Watches `domains` domains against the reference zone server for `seconds` of real time. */
export async function queryRate(domains: number, seconds: number): Promise<QueryRate> {
  const db = openServiceDb(':memory:');
  const now = new Date();
  for (let i = 0; i < domains; i++) {
    const zone = fqdnOf(i);
    writeZoneRecords(db, { zone, name: zone, rrtype: 'TXT', values: [SPF], now });
    writeZoneRecords(db, { zone, name: `_dmarc.${zone}`, rrtype: 'TXT', values: [DMARC], now });
  }
  const server = await startZoneDnsServer({ db, port: 0, ttl: 60 });
  const mirror = openMirror(':memory:', { clock: systemClock });
  const account = mirror.upsertAccount({ label: 'Bench', baseUrl: 'https://api.example.test/api/v1' });
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: Array.from({ length: domains }, (_, i) => ({ id: i + 1, fqdn: fqdnOf(i) })),
    fetchedAt: Date.now(),
  });
  const settings = DEFAULT_DNS_WATCH_SETTINGS;
  const resolver = new WatchResolver({
    servers: [{ host: '127.0.0.1', port: server.port }],
    query: createDnsQuery(),
    clock: systemClock,
    ratePerSecond: settings.ratePerSecond,
  });
  const watcher = new DnsWatcher({
    mirror,
    resolver,
    clock: systemClock,
    cadence: {
      floorSeconds: settings.floorSeconds,
      ceilingSeconds: settings.ceilingSeconds,
      concurrency: 64,
    },
    queriesPerSecond: settings.ratePerSecond,
  });
  let busiestSecond = 0;
  let unknown = 0;
  const start = Date.now();
  const counted = server.queries();
  // Count per wall-clock second at the server, beside the ticks.
  let last = server.queries();
  const sampler = setInterval(() => {
    const q = server.queries();
    busiestSecond = Math.max(busiestSecond, q - last);
    last = q;
  }, 1000);
  try {
    while (Date.now() - start < seconds * 1000) {
      const tickStart = Date.now();
      await watcher.tick();
      await sleep(Math.max(0, 1000 - (Date.now() - tickStart)));
    }
  } finally {
    clearInterval(sampler);
  }
  const elapsed = (Date.now() - start) / 1000;
  const total = server.queries() - counted;
  // The watcher's rates cover its last minute.
  const checks = watcher.stats().checksPerSecond * 60;
  for (let i = 1; i <= domains; i++) {
    unknown += mirror.dnsWatchRecords(account.id, i).filter((r) => r.answer === 'unknown').length;
  }
  mirror.close();
  await server.close();
  db.close();
  return {
    domains,
    seconds: elapsed,
    cap: settings.ratePerSecond,
    perSecond: total / elapsed,
    busiestSecond,
    checksPerSecond: checks / Math.min(60, elapsed),
    unknown,
  };
}
