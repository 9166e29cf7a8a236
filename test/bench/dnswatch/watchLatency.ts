/**
 * Record change → alert with the DNS watch, on a simulated clock: the engine's own DnsWatcher, WatchResolver
 * (its per-resolver cap and TTL cache) and mirror (alert rules, episodes), at the default settings
 * (floor 60 s, ceiling 1 h, 100 queries a second to the one resolver, 64 checks at once, TTL jitter from a
 * seeded generator), ticked once a simulated second as the app's scheduler does, against a zone in memory
 * whose records carry a 60 s TTL. Only DNS's round trip is not simulated (it is 0 here; a real one adds its
 * few milliseconds to each check).
 *
 * After a warm-up of one full round of every record plus 2 minutes (the baseline), `changes` records —
 * alternately a DMARC and an SPF, each on a different domain — are removed at uniformly random moments of 20
 * minutes, each restored 10 minutes after its removal. A change's latency is the first-seen time of its
 * protocol_disconnected (or protocol_restored) alert minus the change's time.
 */
import { DnsWatcher } from '../../../main/core/dnswatch/dnsWatcher.ts';
import { WatchResolver } from '../../../main/core/dnswatch/watchResolver.ts';
import { DEFAULT_DNS_WATCH_SETTINGS } from '../../../main/core/dnswatch/watchSettings.ts';
import { openMirror } from '../../../main/core/mirror/index.ts';
import { STATUS_MODEL } from '../../../main/core/status/statusModel.ts';
import { progress, simulated } from '../progress.ts';
import { DMARC, SPF, fqdnOf, memoryZone } from './memoryZone.ts';

const MINUTE = 60_000;

/** A small seeded generator (mulberry32): the same run for the same seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Change {
  at: number;
  domain: number;
  protocol: 'dmarc' | 'spf';
  kind: 'removed' | 'restored';
}

export interface WatchLatency {
  domains: number;
  /** Latency of each change in ms (removals and restores), in change order; null: no alert told of it. */
  samples: (number | null)[];
  /** Queries the zone was asked a second, on average over the measured part. */
  queriesPerSecond: number;
  /** The largest number of queries in any one simulated second. */
  busiestSecond: number;
  /** Seconds a full round of every record took at the start. */
  firstRoundSeconds: number;
  wallMs: number;
}

/** Runs the watch over `domains` domains with `changes` removals (and their restores). */
export async function watchLatency(domains: number, changes = 40, seed = 20_260_615): Promise<WatchLatency> {
  const wall = performance.now();
  const random = seeded(seed + domains);
  let t = Date.parse('2026-06-15T12:00:00Z');
  const clock = {
    now: () => t,
    sleep: async (ms: number) => {
      t += Math.max(0, ms);
    },
    random,
  };
  const settings = DEFAULT_DNS_WATCH_SETTINGS;
  const zone = memoryZone(domains);
  const mirror = openMirror(':memory:', { clock, status: STATUS_MODEL });
  const account = mirror.upsertAccount({ label: 'Bench', baseUrl: 'https://api.example.test/api/v1' });
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: Array.from({ length: domains }, (_, i) => ({ id: i + 1, fqdn: fqdnOf(i) })),
    fetchedAt: t,
  });
  const resolver = new WatchResolver({
    servers: [{ host: '127.0.0.1', port: 53 }],
    query: zone.query,
    clock,
    ratePerSecond: settings.ratePerSecond,
  });
  const watcher = new DnsWatcher({
    mirror,
    resolver,
    clock,
    cadence: {
      floorSeconds: settings.floorSeconds,
      ceilingSeconds: settings.ceilingSeconds,
      concurrency: 64,
    },
    queriesPerSecond: settings.ratePerSecond,
  });

  let busiestSecond = 0;
  const start = t;
  const records = domains * 5;
  // About: a first round at the resolver's cap, 2 minutes, then the changes' 30 minutes and 10 to tell them.
  const plannedMs = (records / settings.ratePerSecond) * 1000 + 42 * MINUTE;
  const shown = progress(`DNS watch, ${domains} domains`);
  const tick = async () => {
    const before = zone.asked;
    await watcher.tick();
    busiestSecond = Math.max(busiestSecond, zone.asked - before);
    t += 1000;
    shown(`${simulated(t - start, plannedMs)}, ${zone.asked} queries`);
  };

  // Warm-up: every record asked once (the baseline), then two more minutes.
  while (watcher.stats().records === 0 || resolver.queriesSent < records) await tick();
  const firstRoundSeconds = (t - start) / 1000;
  for (let s = 0; s < 120; s++) await tick();

  const changeStart = t;
  const picked = new Set<number>();
  const plan: Change[] = [];
  for (let i = 0; i < changes; i++) {
    let domain: number;
    do domain = Math.floor(random() * domains);
    while (picked.has(domain) && picked.size < domains);
    picked.add(domain);
    const at = changeStart + Math.floor(random() * 20 * MINUTE);
    const protocol = i % 2 === 0 ? 'dmarc' : 'spf';
    plan.push(
      { at, domain, protocol, kind: 'removed' },
      { at: at + 10 * MINUTE, domain, protocol, kind: 'restored' },
    );
  }
  plan.sort((a, b) => a.at - b.at);
  const measuredFrom = t;
  const askedFrom = zone.asked;
  const end = changeStart + 30 * MINUTE + 10 * MINUTE;
  let next = 0;
  while (t < end) {
    for (; next < plan.length && plan[next]!.at <= t; next++) {
      const c = plan[next]!;
      const name = c.protocol === 'dmarc' ? `_dmarc.${fqdnOf(c.domain)}` : fqdnOf(c.domain);
      if (c.kind === 'removed') zone.txt.delete(name);
      else zone.txt.set(name, c.protocol === 'dmarc' ? DMARC : SPF);
      c.at = t; // the change happens at this tick's second
    }
    await tick();
  }

  const alerts = mirror.listAlerts({});
  const samples = plan.map((c) => {
    const rule = c.kind === 'removed' ? 'protocol_disconnected' : 'protocol_restored';
    const told = alerts
      .filter(
        (a) =>
          a.rule === rule &&
          a.fqdn === fqdnOf(c.domain) &&
          a.details.protocol === c.protocol &&
          Date.parse(a.firstSeenAt) >= c.at,
      )
      .map((a) => Date.parse(a.firstSeenAt) - c.at)
      .sort((a, b) => a - b)[0];
    return told ?? null;
  });
  mirror.close();
  return {
    domains,
    samples,
    queriesPerSecond: (zone.asked - askedFrom) / ((t - measuredFrom) / 1000),
    busiestSecond,
    firstRoundSeconds,
    wallMs: performance.now() - wall,
  };
}
