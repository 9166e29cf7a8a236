/**
 * Every live check at 1,000 and 5,000 domains (smoke: 50): one round of each, in real time against the
 * reference world in a process of its own (livechecks/liveZoneProcess.ts: real DNS over UDP from the service's
 * zone server, real HTTPS for the MTA-STS policy hosts and real SMTP STARTTLS on 50 shared hosting addresses,
 * certificates from the world's test CA given as the extra CA), through the runner and the DNS watch's
 * client the app uses. Prints per size and check: the round's time, DNS queries and connections — the most
 * in any 60 s against their caps — and the process's peak memory (RSS and heap, sampled every 100 ms).
 *
 * Caps: the DNS watch's default (100 queries a second per resolver). Connections: the default 30 a minute
 * makes a round of 5,000 policy hosts 167 minutes (as planned: a daily check), so the bench sets the
 * highest cap Settings allows (10,000) and prints what the default would take.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDnsQuery } from '../../main/core/dnswatch/dnsQuery.ts';
import { WatchResolver } from '../../main/core/dnswatch/watchResolver.ts';
import { DEFAULT_DNS_WATCH_SETTINGS } from '../../main/core/dnswatch/watchSettings.ts';
import { LiveCheckRunner } from '../../main/core/livechecks/liveCheckRunner.ts';
import {
  DEFAULT_LIVE_CHECK_SETTINGS,
  type LiveCheckSettings,
} from '../../main/core/livechecks/liveCheckSettings.ts';
import { LIVE_CHECKS } from '../../main/core/livechecks/registry.ts';
import { openMirror } from '../support/openMirror.ts';
import { systemClock } from '../../shared/api/clock.ts';
import { TEST_DNSBL_ZONE } from '../../service/dns/testDnsbl.ts';
import { startServerProcess } from './dnswatch/queryRate.ts';
import { liveFqdnOf } from './livechecks/liveZone.ts';
import type { Scale } from './scale.ts';

const SIZES: Record<Scale, number[]> = { smoke: [50], default: [1000, 5000], full: [1000, 5000] };
const CHECKS = [
  'spf_lookups',
  'dnsbl_listings',
  'mta_sts_live',
  'mx_starttls',
  'vmc_expiry',
  'token_expiry',
] as const;
const BENCH_CONNECTIONS_PER_MINUTE = 10_000;
const script = fileURLToPath(new URL('./livechecks/liveZoneProcess.ts', import.meta.url));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The most of a running count in any 60 s, from (time, count) samples. */
function mostInAMinute(samples: { at: number; value: number }[]): number {
  let most = 0;
  let from = 0;
  for (const s of samples) {
    while (samples[from]!.at < s.at - 60_000) from++;
    // The window's start is the last sample before it (or the round's start, count 0).
    const base = from > 0 ? samples[from - 1]!.value : 0;
    most = Math.max(most, s.value - base);
  }
  return most;
}

interface World {
  port: number;
  httpsPort: number;
  smtpPort: number;
  ca: string;
}

/** One round of `check` over `domains` domains; the row it prints. */
async function round(domains: number, world: World, check: (typeof CHECKS)[number]): Promise<string[]> {
  const mirror = openMirror(':memory:', { clock: systemClock });
  const account = mirror.upsertAccount({ label: 'Bench', baseUrl: 'https://api.example.test/api/v1' });
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: Array.from({ length: domains }, (_, i) => ({ id: i + 1, fqdn: liveFqdnOf(i) })),
    fetchedAt: Date.now(),
  });
  const dnsCap = DEFAULT_DNS_WATCH_SETTINGS.ratePerSecond * 60;
  const resolver = new WatchResolver({
    servers: [{ host: '127.0.0.1', port: world.port }],
    query: createDnsQuery(),
    clock: systemClock,
    ratePerSecond: DEFAULT_DNS_WATCH_SETTINGS.ratePerSecond,
    maxCacheSeconds: DEFAULT_DNS_WATCH_SETTINGS.ceilingSeconds,
  });
  const definition = LIVE_CHECKS[check]!;
  const settings: LiveCheckSettings = {
    ...DEFAULT_LIVE_CHECK_SETTINGS,
    httpsPort: world.httpsPort,
    smtpPort: world.smtpPort,
    connectionsPerMinute: BENCH_CONNECTIONS_PER_MINUTE,
    kinds: { dnsbl: { zones: [TEST_DNSBL_ZONE] } },
  };
  const runner = new LiveCheckRunner({
    mirror,
    clock: systemClock,
    checks: [definition],
    settings,
    resolver,
    dnsTrusted: () => true,
    ca: [world.ca],
    afterWrite: async () => {},
  });
  const start = Date.now();
  const queries: { at: number; value: number }[] = [];
  const opened: { at: number; value: number }[] = [];
  const peak = { rss: 0, heap: 0 };
  // The runner's own count of the last 60 s, at every sample: the most it reached is the figure for the cap.
  let mostConnections = 0;
  const sample = () => {
    const now = Date.now();
    const stats = runner.stats();
    queries.push({ at: now, value: resolver.queriesSent });
    opened.push({ at: now, value: stats.connections });
    mostConnections = Math.max(mostConnections, stats.connectionsLastMinute);
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heap = Math.max(peak.heap, m.heapUsed);
  };
  const timer = setInterval(sample, 100);
  await runner.round();
  clearInterval(timer);
  sample();
  const seconds = (Date.now() - start) / 1000;
  const rows = mirror.allLiveChecks().filter((r) => r.check === check);
  const unknown = rows.filter((r) => r.status === 'unknown').length;
  const alerts = mirror.listAlerts({ open: true, limit: 'all' }).length;
  mirror.close();
  const dialled = definition.uses.includes('connections');
  const total = runner.stats().connections;
  const defaultCap = DEFAULT_LIVE_CHECK_SETTINGS.connectionsPerMinute;
  return [
    String(domains),
    check,
    `${seconds.toFixed(1)} s`,
    String(resolver.queriesSent),
    `${mostInAMinute(queries)} / ${dnsCap}`,
    dialled
      ? `${total} (${Math.max(mostConnections, mostInAMinute(opened))} / ${BENCH_CONNECTIONS_PER_MINUTE})`
      : '—',
    dialled ? `${(total / defaultCap).toFixed(0)} min` : '—',
    String(alerts),
    String(unknown),
    `${mb(peak.rss)} (heap ${mb(peak.heap)})`,
  ];
}

/** Runs each size's rounds and prints them. */
export async function benchLiveChecks(scale: Scale): Promise<void> {
  const head = [
    'domains',
    'check',
    'one round',
    'DNS queries',
    'queries: most in 60 s / cap',
    'connections (most in 60 s / cap)',
    `round at the default ${DEFAULT_LIVE_CHECK_SETTINGS.connectionsPerMinute}/min`,
    'alerts',
    'unknown',
    'peak memory (RSS)',
  ];
  process.stdout.write(
    '\nLive checks — one round of each against the reference world (real UDP DNS, HTTPS, SMTP STARTTLS)\n',
  );
  process.stdout.write(`${head.join(' | ')}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-bench-live-'));
  try {
    for (const domains of SIZES[scale]) {
      const caFile = join(dir, 'ca.pem');
      const server = await startServerProcess(domains, script, [caFile]);
      const world: World = {
        port: server.port,
        httpsPort: server.hello.httpsPort!,
        smtpPort: server.hello.smtpPort!,
        ca: readFileSync(caFile, 'utf8'),
      };
      try {
        for (const check of CHECKS)
          process.stdout.write(`${(await round(domains, world, check)).join(' | ')}\n`);
      } finally {
        await server.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
