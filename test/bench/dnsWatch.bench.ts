/**
 * The DNS watch (issue 22): p95 record change → alert at 50, 200, 1,000 and 5,000 domains with and without
 * the watch, and the queries a second it sends at 5,000 domains against the reference service's DNS port.
 * Prints figures, asserts nothing.
 *
 * With the watch: the engine's DnsWatcher on a simulated clock (dnswatch/watchLatency.ts states the method).
 * Without it: the API alone, at its lower bound (day/lowerBound.ts: the best any poller of one token can do,
 * p95* = 0.95 × 2N/54 min) — and the engine's measured p95 for removed records when the simulated day has
 * just written bench-results.json. With both: each change told by whichever comes first, the watch or an API
 * poll at a uniformly random moment of the bound's period.
 *
 * Sizes: 50 and 200 by default; 1,000 and 5,000 with --full (their simulated 45 minutes cost ~1.5 and ~6 min
 * of CPU, most of it the mirror re-deriving domains' status after each tick's DNS write: see the README);
 * smoke: 50, and the query rate at 50 for 5 s. BENCH_DNS_DOMAINS=50,200 picks the sizes; BENCH_DNS_SECONDS
 * (default 20) how long the query rate runs. Each size's row is printed as it is measured.
 */
import { existsSync, readFileSync } from 'node:fs';
import { lowerBound } from './day/lowerBound.ts';
import { queryRate } from './dnswatch/queryRate.ts';
import { seeded, watchLatency } from './dnswatch/watchLatency.ts';
import type { Scale } from './scale.ts';

const SIZES: Record<Scale, number[]> = { smoke: [50], default: [50, 200], full: [50, 200, 1000, 5000] };
/** The query rate's size: the largest portfolio (smoke: the smallest, briefly). */
const RATE: Record<Scale, { domains: number; seconds: number }> = {
  // Long enough for the server's once-a-second counts to give a rate on a loaded machine.
  smoke: { domains: 50, seconds: 5 },
  default: { domains: 5000, seconds: 20 },
  full: { domains: 5000, seconds: 20 },
};

/** The p-th percentile (0–100) by nearest rank. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const secs = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(0)} s`);
const mins = (ms: number | null) => (ms === null ? '—' : `${(ms / 60_000).toFixed(1)} min`);

/** The engine's measured p95 for removed records per N, from the simulated day's bench-results.json. */
function engineRemovalP95(): Map<number, number> {
  const found = new Map<number, number>();
  if (!existsSync('bench-results.json')) return found;
  try {
    const json = JSON.parse(readFileSync('bench-results.json', 'utf8')) as {
      days?: { domains: number; engine?: { p95ByKindMs?: { removed?: { median?: number } | null } } }[];
    };
    for (const day of json.days ?? []) {
      const p95 = day.engine?.p95ByKindMs?.removed?.median;
      if (typeof p95 === 'number') found.set(day.domains, p95);
    }
  } catch {
    // Not ours to judge: the day bench's own output.
  }
  return found;
}

/** Runs both measurements and prints them. */
export async function benchDnsWatch(scale: Scale): Promise<void> {
  const sizes = process.env.BENCH_DNS_DOMAINS
    ? process.env.BENCH_DNS_DOMAINS.split(',').map(Number)
    : SIZES[scale];
  const seconds = Number(process.env.BENCH_DNS_SECONDS ?? 0) || RATE[scale].seconds;
  const rateDomains = RATE[scale].domains;
  const engine = engineRemovalP95();

  process.stdout.write(
    '\nDNS watch — p95 record change → alert (removals and restores, TTL 60 s, default settings; simulated clock)\n',
  );
  const head = [
    'domains',
    'API alone: bound',
    'API: engine¹',
    'DNS watch',
    'both',
    'watch p50',
    'max',
    'missed',
  ];
  // Widths fixed up front, so each row goes out as soon as its size is measured.
  const widths = head.map((h) => Math.max(h.length, 8));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  process.stdout.write(`${line(head)}\n`);
  const notes: string[] = [];
  for (const n of sizes) {
    const cpu = process.cpuUsage();
    const run = await watchLatency(n);
    const { user, system } = process.cpuUsage(cpu);
    const told = run.samples.filter((s): s is number => s !== null);
    const sorted = [...told].sort((a, b) => a - b);
    const bound = lowerBound(n);
    const random = seeded(n);
    const both = run.samples
      .map((s) => Math.min(s ?? Infinity, random() * bound.alertPeriodMs))
      .sort((a, b) => a - b);
    const row = [
      String(n),
      mins(bound.p95Ms),
      engine.has(n) ? mins(engine.get(n)!) : '—',
      secs(percentile(sorted, 95)),
      secs(percentile(both, 95)),
      secs(percentile(sorted, 50)),
      secs(sorted.at(-1) ?? null),
      `${run.samples.length - told.length}/${run.samples.length}`,
    ];
    process.stdout.write(`${line(row)}\n`);
    notes.push(
      `  N=${n}: first round of every record ${run.firstRoundSeconds} s, then ${run.queriesPerSecond.toFixed(0)} queries/s (busiest second ${run.busiestSecond}); ${(run.wallMs / 1000).toFixed(0)} s wall, ${((user + system) / 1e6).toFixed(0)} s CPU\n`,
    );
  }
  process.stdout.write(
    '  bound: the best any API poller can do (0.95 × 2N/54 min); ¹ the engine’s measured p95 for a removed record\n' +
      '  from the simulated day (only when it ran just before); both: the sooner of the watch and a poll at the bound\n' +
      notes.join(''),
  );

  const rate = await queryRate(rateDomains, seconds);
  process.stdout.write(
    `\nDNS watch at ${rateDomains.toLocaleString('en')} domains (${(5 * rateDomains).toLocaleString('en')} records) against the reference service's DNS port, ${rate.seconds.toFixed(0)} s real time:\n` +
      `  ${rate.perSecond.toFixed(1)} queries/s counted at the server (cap ${rate.cap}/s per resolver); busiest second ${rate.busiestSecond.toFixed(0)}` +
      ` (the cap counts any one-second window at the watch; the server's seconds are its own); ${rate.checksPerSecond.toFixed(1)} records checked/s; ${rate.unknown} unknown answers\n` +
      `  at the cap a full round of every record takes ${((5 * rateDomains) / rate.cap).toFixed(0)} s; the ${(2 * rateDomains).toLocaleString('en')} working records (SPF, DMARC) go first: every ~${((2 * rateDomains) / rate.cap).toFixed(0)} s\n`,
  );
}
