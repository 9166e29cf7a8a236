/**
 * Queries a second the DNS watch sends at N domains with the default settings, in real time over real UDP to
 * the reference service's DNS port (service/dns/zoneDnsServer.ts on 127.0.0.1, the sandbox zone holding each
 * domain's SPF and DMARC, in a process of its own: zoneServerProcess.ts), counted at the server: the engine's
 * DnsWatcher ticked once a second as the app's scheduler does, for `seconds`.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDnsQuery } from '../../../main/core/dnswatch/dnsQuery.ts';
import { DnsWatcher } from '../../../main/core/dnswatch/dnsWatcher.ts';
import { WatchResolver } from '../../../main/core/dnswatch/watchResolver.ts';
import { DEFAULT_DNS_WATCH_SETTINGS } from '../../../main/core/dnswatch/watchSettings.ts';
import { openMirror } from '../../../main/core/mirror/index.ts';
import { STATUS_MODEL } from '../../../main/core/status/statusModel.ts';
import { systemClock } from '../../../shared/api/clock.ts';
import { fqdnOf } from './memoryZone.ts';

const serverScript = fileURLToPath(new URL('./zoneServerProcess.ts', import.meta.url));

/**
 * A zone server process (`script`, for `domains` domains): its port, and the queries it has answered (updated
 * every second, when the script reports them).
 */
export async function startServerProcess(domains: number, script = serverScript) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, String(domains)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const counts: { at: number; queries: number }[] = [];
  let resolvePort: (port: number) => void;
  const port = new Promise<number>((resolve, reject) => {
    resolvePort = resolve;
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the zone server exited with ${code}`)));
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as { port?: number; queries?: number; at?: number };
    if (message.port !== undefined) resolvePort(message.port);
    if (message.queries !== undefined && message.at !== undefined)
      counts.push({ at: message.at, queries: message.queries });
  });
  return {
    port: await port,
    counts,
    stop: () =>
      new Promise<void>((done) => {
        child.removeAllListeners('exit');
        child.on('exit', () => done());
        child.stdin!.end();
      }),
  };
}

export interface QueryRate {
  domains: number;
  seconds: number;
  cap: number;
  /** Queries the server answered a second, on average. */
  perSecond: number;
  /** The highest rate the server saw between two of its one-second counts (queries a second). */
  busiestSecond: number;
  /** Records checked a second (a check may cost more than one query: SPF's includes, CNAMEs). */
  checksPerSecond: number;
  /** Answers the watch got that were not definite (timeouts, SERVFAIL): the server falling behind. */
  unknown: number;
}

/** Watches `domains` domains against the reference zone server for `seconds` of real time. */
export async function queryRate(domains: number, seconds: number): Promise<QueryRate> {
  const server = await startServerProcess(domains);
  const mirror = openMirror(':memory:', { clock: systemClock, status: STATUS_MODEL });
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
  let unknown = 0;
  const start = Date.now();
  while (Date.now() - start < seconds * 1000) {
    const tickStart = Date.now();
    await watcher.tick();
    await sleep(Math.max(0, 1000 - (Date.now() - tickStart)));
  }
  const end = Date.now();
  const elapsed = (end - start) / 1000;
  // The server's counts, one a second, taken while the watch ran.
  const counts = server.counts.filter((c) => c.at >= start && c.at <= end);
  if (counts.length < 2)
    throw new Error(
      `queryRate: the zone server counted ${counts.length} second(s) in ${elapsed.toFixed(0)} s — too few for a rate (a machine this loaded cannot time it)`,
    );
  const total = counts.at(-1)!.queries - counts[0]!.queries;
  const span = (counts.at(-1)!.at - counts[0]!.at) / 1000;
  let busiestSecond = 0;
  // Per sample, as a rate: the server's timer fires late on a loaded machine.
  for (let i = 1; i < counts.length; i++) {
    const dt = (counts[i]!.at - counts[i - 1]!.at) / 1000;
    busiestSecond = Math.max(busiestSecond, (counts[i]!.queries - counts[i - 1]!.queries) / Math.max(1, dt));
  }
  // The watcher's rates cover its last minute.
  const checks = watcher.stats().checksPerSecond * 60;
  for (let i = 1; i <= domains; i++) {
    unknown += mirror.dnsWatchRecords(account.id, i).filter((r) => r.answer === 'unknown').length;
  }
  mirror.close();
  await server.stop();
  return {
    domains,
    seconds: elapsed,
    cap: settings.ratePerSecond,
    perSecond: total / span,
    busiestSecond,
    checksPerSecond: checks / Math.min(60, elapsed),
    unknown,
  };
}
