/**
 * The SPF and blocklist live checks at 1,000 and 5,000 domains (smoke: 50): one round of each, in real time
 * over real UDP against the reference service's DNS port in a process of its own (livechecks/liveZone.ts:
 * every domain an MX host and an SPF record including one of 20 shared vendor trees; the test DNSBL zone
 * listing every 100th MX address), through the runner and the DNS watch's client the app uses, at the default
 * settings. Prints per size and check: the round's time, the queries it sent and their rate a minute against
 * the resolver's cap (the DNS watch's 100 a second per server), the listings found, and the process's memory.
 */
import { fileURLToPath } from 'node:url';
import { createDnsQuery } from '../../main/core/dnswatch/dnsQuery.ts';
import { WatchResolver } from '../../main/core/dnswatch/watchResolver.ts';
import { DEFAULT_DNS_WATCH_SETTINGS } from '../../main/core/dnswatch/watchSettings.ts';
import { LiveCheckRunner } from '../../main/core/livechecks/liveCheckRunner.ts';
import { DEFAULT_LIVE_CHECK_SETTINGS } from '../../main/core/livechecks/liveCheckSettings.ts';
import { LIVE_CHECKS } from '../../main/core/livechecks/registry.ts';
import { openMirror } from '../../main/core/mirror/index.ts';
import { STATUS_MODEL } from '../../main/core/status/statusModel.ts';
import { systemClock } from '../../shared/api/clock.ts';
import { TEST_DNSBL_ZONE } from '../../service/dns/testDnsbl.ts';
import { startServerProcess } from './dnswatch/queryRate.ts';
import { liveFqdnOf } from './livechecks/liveZone.ts';
import type { Scale } from './scale.ts';

const SIZES: Record<Scale, number[]> = { smoke: [50], default: [1000, 5000], full: [1000, 5000] };
const script = fileURLToPath(new URL('./livechecks/liveZoneProcess.ts', import.meta.url));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** One round of `check` over `domains` domains; the row it prints. */
async function round(
  domains: number,
  port: number,
  check: 'spf_lookups' | 'dnsbl_listings',
): Promise<string[]> {
  const mirror = openMirror(':memory:', { clock: systemClock, status: STATUS_MODEL });
  const account = mirror.upsertAccount({ label: 'Bench', baseUrl: 'https://api.example.test/api/v1' });
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: Array.from({ length: domains }, (_, i) => ({ id: i + 1, fqdn: liveFqdnOf(i) })),
    fetchedAt: Date.now(),
  });
  const cap = DEFAULT_DNS_WATCH_SETTINGS.ratePerSecond;
  const resolver = new WatchResolver({
    servers: [{ host: '127.0.0.1', port }],
    query: createDnsQuery(),
    clock: systemClock,
    ratePerSecond: cap,
    maxCacheSeconds: DEFAULT_DNS_WATCH_SETTINGS.ceilingSeconds,
  });
  const definition = LIVE_CHECKS[check]!;
  const runner = new LiveCheckRunner({
    mirror,
    clock: systemClock,
    checks: [definition],
    settings: { ...DEFAULT_LIVE_CHECK_SETTINGS, kinds: { dnsbl: { zones: [TEST_DNSBL_ZONE] } } },
    resolver,
    dnsTrusted: () => true,
    ca: undefined,
    afterWrite: async () => {},
  });
  const start = Date.now();
  await runner.round();
  const seconds = (Date.now() - start) / 1000;
  const rows = mirror.allLiveChecks().filter((r) => r.check === check);
  const unknown = rows.filter((r) => r.status === 'unknown').length;
  const alerts = mirror.listAlerts({ open: true, limit: 'all' }).length;
  const perMinute = (resolver.queriesSent / seconds) * 60;
  const memory = process.memoryUsage();
  mirror.close();
  return [
    String(domains),
    check,
    `${seconds.toFixed(1)} s`,
    String(resolver.queriesSent),
    `${perMinute.toFixed(0)} / ${cap * 60}`,
    `${definition.caps.concurrency} in flight`,
    String(alerts),
    String(unknown),
    `${mb(memory.rss)} (heap ${mb(memory.heapUsed)})`,
  ];
}

/** Runs each size's rounds and prints them. */
export async function benchLiveChecks(scale: Scale): Promise<void> {
  const head = [
    'domains',
    'check',
    'one round',
    'queries',
    'queries/min vs cap',
    'probes',
    'alerts',
    'unknown',
    'memory (RSS)',
  ];
  process.stdout.write(
    '\nLive checks — one round over the reference DNS port (real UDP, default settings)\n',
  );
  process.stdout.write(`${head.join(' | ')}\n`);
  for (const domains of SIZES[scale]) {
    const server = await startServerProcess(domains, script);
    try {
      for (const check of ['spf_lookups', 'dnsbl_listings'] as const)
        process.stdout.write(`${(await round(domains, server.port, check)).join(' | ')}\n`);
    } finally {
      await server.stop();
    }
  }
}
