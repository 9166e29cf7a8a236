/**
 * The simulated day (issue 10): for N = 50, 200 and 1,000 domains, the engine and a naive cron poller against
 * the reference service on a virtual clock, side by side with the theoretical minimum; the first sync; the
 * mirror at 1,000 domains. Each N runs in its own process, two at a time; the figures go to the terminal as
 * one table per N and to bench-results.json for comparing runs. Prints figures, asserts nothing.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_HOURS } from './day/dayPlan.ts';
import { LIMIT_PER_MINUTE, MINIMUM_FORMULAS, minimums } from './day/theoreticalMinimum.ts';
import { dayTable } from './day/dayTable.ts';

const worker = fileURLToPath(new URL('./day/dayWorker.ts', import.meta.url));
const DOMAIN_COUNTS = [1000, 200, 50];

function runWorker(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`day worker ${args.join(' ')} exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>);
    });
  });
}

/** Runs `tasks` at most `width` at a time, keeping their order in the result. */
async function pool<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}

/** Runs every N and the mirror benchmark, prints the tables and writes bench-results.json. */
export async function benchDay(): Promise<void> {
  const wall = performance.now();
  const fullDay = Number(process.env.BENCH_DAY_HOURS ?? 0);
  const hoursOf = (n: number) => (fullDay > 0 ? fullDay : DEFAULT_HOURS[n]!);
  // Longest first: the engine's and the naive poller's day at 1,000 domains side by side on the two cores.
  const tasks = [
    ...DOMAIN_COUNTS.flatMap((n) =>
      (['engine', 'naive'] as const).map(
        (poller) => () => runWorker([String(n), String(hoursOf(n)), poller]),
      ),
    ),
    () => runWorker(['mirror']),
  ];
  const results = await pool(tasks, 2);
  const days = DOMAIN_COUNTS.map((_, i) =>
    mergeDay(results[2 * i] as unknown as WorkerDay, results[2 * i + 1] as unknown as WorkerDay),
  );
  const mirror = results[tasks.length - 1]!.mirror as Record<string, number>;

  process.stdout.write(
    `\nsimulated day — engine vs naive cron poller (every core signal every 5 min), ${LIMIT_PER_MINUTE}/min per token\n`,
  );
  for (const day of [...days].sort((a, b) => a.domains - b.domains)) {
    process.stdout.write(`\n${dayTable(day, minimums(day.domains))}\n`);
  }
  process.stdout.write(
    `\ntheoretical minimum (best any poller can do with ${LIMIT_PER_MINUTE} requests a minute):\n`,
  );
  for (const line of MINIMUM_FORMULAS) process.stdout.write(`  ${line}\n`);
  process.stdout.write(
    `\nmirror at 1,000 domains: ${mirror.mirrorWritesPerSecond!.toFixed(0)} health writes/s vs raw better-sqlite3 ${mirror.rawInsertsPerSecond!.toFixed(0)}/s (raw ÷ mirror ${mirror.rawOverMirror!.toFixed(1)}×); overview() ${mirror.overviewMs!.toFixed(1)} ms; 365-day health history (${mirror.history365Points} points) ${mirror.history365Ms!.toFixed(2)} ms; a sync tick's planning (jobs from the mirror, allocation, plan) ${mirror.tickPlanMs!.toFixed(1)} ms\n`,
  );
  const big = days.find((d) => d.domains === 1000);
  if (big)
    process.stdout.write(
      `RSS after the simulated day at 1,000 domains: ${big.rssMiB.toFixed(0)} MiB (the engine's process, with the reference service and its 1,000 domains in it)\n`,
    );
  process.stdout.write(
    `(simulated hours per N: ${DOMAIN_COUNTS.map((n) => `${n}: ${hoursOf(n)} h`).join(', ')}; wall ${((performance.now() - wall) / 1000).toFixed(0)} s)\n`,
  );

  const json = {
    at: new Date().toISOString(),
    node: process.version,
    limitPerMinute: LIMIT_PER_MINUTE,
    days: days.map((d) => ({ ...d, minimum: minimums(d.domains) })),
    mirror,
  };
  writeFileSync('bench-results.json', `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write('figures written to bench-results.json\n');
}

/** The JSON a day worker prints: one poller's day. */
interface WorkerDay {
  domains: number;
  hours: number;
  changes: number;
  poller: 'engine' | 'naive';
  figures: PollerResult;
  firstSync: DayResult['firstSync'] | null;
  wallMs: number;
  rssMiB: number;
}

/** The engine's and the naive poller's days of one N as one result (same seed, so the same day). */
function mergeDay(engine: WorkerDay, naive: WorkerDay): DayResult {
  if (engine.changes !== naive.changes) throw new Error(`N=${engine.domains}: the two days differ`);
  return {
    domains: engine.domains,
    hours: engine.hours,
    changes: engine.changes,
    engine: engine.figures,
    naive: naive.figures,
    firstSync: engine.firstSync!,
    wallMs: Math.max(engine.wallMs, naive.wallMs),
    rssMiB: engine.rssMiB,
  };
}

/** One N's figures, engine and naive poller side by side. */
export interface DayResult {
  domains: number;
  hours: number;
  changes: number;
  engine: PollerResult;
  naive: PollerResult | null;
  firstSync: {
    watchedMs: number | null;
    backfilledMs: number | null;
    watchRequests: number;
    backfillRequests: number;
  };
  wallMs: number;
  rssMiB: number;
}

/** One poller's figures as a worker prints them. */
export interface PollerResult {
  requests: number;
  status429: number;
  status429Steady: number;
  perMinute: number;
  latency: {
    changes: number;
    missed: number;
    p50Ms: number | null;
    p95Ms: number | null;
    maxMs: number | null;
  };
}
