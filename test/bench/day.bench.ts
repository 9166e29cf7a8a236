/**
 * The simulated day (issues 10, 21): for each N, the engine, the 30-line round-robin peer and a paced cron
 * poller against the reference service on a virtual clock, each on the same seeded days (at least 5 seeds),
 * side by side with the lower bound; the engine's first sync; the mirror at 1,000 domains. Every (N, poller,
 * seed) runs in its own process, two at a time; the figures go to the terminal as one table per N and to
 * bench-results.json. Prints figures, asserts nothing.
 *
 * Default (DEFAULT_RUNS): 5 seeds at 50 and 200 domains for 1.5 and 2 simulated hours, 1 seed at 1,000 for
 * 4 h, the paced cron on the first seed only: a few minutes on 2 cores.
 * BENCH_DAY_FULL=1: 24 h × 5 seeds of every poller at 50, 200, 1,000 and 5,000 domains (hours of wall time).
 * BENCH_DAY_DOMAINS=1000,5000 / BENCH_DAY_HOURS=h / BENCH_DAY_SEEDS=k / BENCH_DAY_CRON_SEEDS=k override;
 * BENCH_DAY_POLLERS=engine runs only those pollers (the others' days do not change with the engine).
 * BENCH_DAY_KEEP=<dir> keeps each day's figures there and reuses them (day/keptDays.ts); BENCH_DAY_WIDTH=k runs
 * k days at a time (2). Smoke: 50 domains, one seed, half an hour, every poller (does it still run?).
 *
 * Each N's table is printed as soon as its days are in (the longest N first); each day's worker tells on
 * stderr how far in simulated time it got, and this process each day that ends.
 */
import { writeFileSync } from 'node:fs';
import { DEFAULT_RUNS, SMOKE_RUN } from './day/dayPlan.ts';
import { pool, runWorker } from './day/workers.ts';
import { dayTable, type DayView } from './day/dayTable.ts';
import { LIMIT_PER_MINUTE, LOWER_BOUND_FORMULAS, lowerBound } from './day/lowerBound.ts';
import { requestKindsTable } from './day/requestKinds.ts';
import { ratioToPeer, spread, summarize, type WorkerDay } from './day/seedSummary.ts';
import { POLLER_KINDS } from './day/simulatedDay.ts';
import type { Scale } from './scale.ts';

/** One N's table figures from its days. */
function viewOf(n: number, days: readonly WorkerDay[], plan: { hours: number; seeds: number }): DayView {
  const of = (poller: string) => days.filter((d) => d.poller === poller);
  const engine = of('engine');
  return {
    domains: n,
    hours: plan.hours,
    seeds: plan.seeds,
    changesPerSeed: spread(engine.map((d) => d.changes)),
    bound: lowerBound(n),
    engine: summarize(engine),
    peer: summarize(of('peer')),
    naive: summarize(of('naive')),
    engineOverPeer: ratioToPeer(engine, of('peer')),
    wallMs: days.reduce((s, d) => s + d.wallMs, 0),
    cpuS: days.reduce((s, d) => s + (d.cpuS ?? 0), 0),
  };
}

/** One N's table and its engine's requests per kind. */
function printView(view: DayView, days: readonly WorkerDay[]): void {
  process.stdout.write(`\n${dayTable(view)}\n`);
  const engineDays = days.filter((d) => d.poller === 'engine');
  if (engineDays.length)
    process.stdout.write(
      `engine requests per kind, N = ${view.domains} (median across seeds${process.env.BENCH_DAY_WHOLE_SERIES === '1' ? '; BENCH_DAY_WHOLE_SERIES: no start_date windows' : ''}):\n${requestKindsTable(engineDays)}\n`,
    );
}

/**
 * Runs every (N, poller, seed) and the mirror benchmark, prints each N's table when its days are in, then
 * the targets, and writes bench-results.json (not in smoke: a smoke run's figures are no one's to keep).
 */
export async function benchDay(scale: Scale = 'default'): Promise<void> {
  const wall = performance.now();
  const env = process.env;
  const full = scale === 'full' || env.BENCH_DAY_FULL === '1';
  const smoke = scale === 'smoke';
  const presets = smoke ? [SMOKE_RUN] : DEFAULT_RUNS;
  const counts = env.BENCH_DAY_DOMAINS
    ? env.BENCH_DAY_DOMAINS.split(',').map(Number)
    : full
      ? [5000, 1000, 200, 50]
      : presets.map((r) => r.domains);
  const preset = (n: number) => presets.find((r) => r.domains === n);
  const hoursOf = (n: number) => Number(env.BENCH_DAY_HOURS ?? 0) || (full ? 24 : (preset(n)?.hours ?? 24));
  const seedsOf = (n: number) => Number(env.BENCH_DAY_SEEDS ?? 0) || (full ? 5 : (preset(n)?.seeds ?? 5));
  const cronSeedsOf = (n: number) =>
    Math.min(seedsOf(n), Number(env.BENCH_DAY_CRON_SEEDS ?? 0) || (full ? 5 : 1));
  const mirrorDomains = smoke ? SMOKE_RUN.domains : 1_000;
  const pollers = env.BENCH_DAY_POLLERS
    ? POLLER_KINDS.filter((p) => env.BENCH_DAY_POLLERS!.split(',').includes(p))
    : POLLER_KINDS;
  // Longest first, so the two cores finish together.
  const runs = [...counts]
    .sort((a, b) => b * hoursOf(b) - a * hoursOf(a))
    .flatMap((n) =>
      Array.from({ length: seedsOf(n) }, (_, seed) =>
        pollers
          .filter((p) => p !== 'naive' || seed < cronSeedsOf(n))
          .map((poller) => ({
            n,
            seed,
            poller,
          })),
      ).flat(),
    );
  const tasks = [
    ...runs.map(
      (r) => () =>
        runWorker([String(r.n), String(hoursOf(r.n)), r.poller, String(r.seed)], {
          BENCH_DAY_SEEDS_OF: String(seedsOf(r.n)),
        }),
    ),
    () => runWorker(mirrorDomains === 1_000 ? ['mirror'] : ['mirror', String(mirrorDomains)]),
  ];

  process.stdout.write(
    `\nsimulated day — engine vs 30-line round-robin peer (health + failed sources at 54/min, list hourly) vs cron every 5 min paced at ${LIMIT_PER_MINUTE}/min\n`,
  );
  const done: (WorkerDay | undefined)[] = new Array(runs.length);
  const left = new Map<number, number>();
  for (const r of runs) left.set(r.n, (left.get(r.n) ?? 0) + 1);
  const views: DayView[] = [];
  let ended = 0;
  const results = await pool(tasks, Number(env.BENCH_DAY_WIDTH ?? 0) || 2, (i, result) => {
    ended += 1;
    const r = runs[i];
    if (env.BENCH_QUIET !== '1')
      process.stderr.write(
        `  … day: ${ended} of ${tasks.length} runs done ${r ? `(${r.n} domains, ${r.poller}, seed ${r.seed + 1})` : '(the mirror at scale)'}, ${((performance.now() - wall) / 1000).toFixed(0)} s wall\n`,
      );
    if (!r) return;
    done[i] = result as unknown as WorkerDay;
    left.set(r.n, left.get(r.n)! - 1);
    if (left.get(r.n)! > 0) return;
    // This N's last day is in: its table now, not after the other Ns.
    const ofN = done.filter((d): d is WorkerDay => d?.domains === r.n);
    const view = viewOf(r.n, ofN, { hours: hoursOf(r.n), seeds: seedsOf(r.n) });
    views.push(view);
    printView(view, ofN);
  });
  const days = results.slice(0, runs.length) as unknown as WorkerDay[];
  const mirror = results[tasks.length - 1]!.mirror as Record<string, number>;
  views.sort((a, b) => a.domains - b.domains);

  process.stdout.write(
    '¹ the engine’s process holds the reference service and its domains too (see the week run for the engine alone)\n',
  );
  process.stdout.write(
    `\nlower bound (best any poller can do for these alerts with ${LIMIT_PER_MINUTE} a minute):\n`,
  );
  for (const line of LOWER_BOUND_FORMULAS) process.stdout.write(`  ${line}\n`);
  process.stdout.write(
    '\ntargets: engine p95 ≤ peer (median across seeds) and ≤ 1.2 × bound; watched ≤ 1.15 × bound\n',
  );
  for (const v of views) {
    const p95 = v.engine.p95Ms?.median ?? null;
    const ok = (b: boolean) => (b ? 'met' : 'NOT met');
    process.stdout.write(
      `  N=${v.domains}: engine ÷ peer ${v.engineOverPeer ? v.engineOverPeer.median.toFixed(2) : '—'}× (${ok((v.engineOverPeer?.median ?? 9) <= 1)}), ` +
        `÷ bound ${p95 === null ? '—' : (p95 / v.bound.p95Ms).toFixed(2)}× (${ok(p95 !== null && p95 <= 1.2 * v.bound.p95Ms)}), ` +
        `watched ÷ bound ${v.engine.watchedMs ? (v.engine.watchedMs.median / v.bound.watchMs).toFixed(2) : '—'}× (${ok((v.engine.watchedMs?.median ?? Infinity) <= 1.15 * v.bound.watchMs)})\n`,
    );
  }
  process.stdout.write(
    `\nmirror at ${mirrorDomains.toLocaleString('en')} domains: ${mirror.mirrorWritesPerSecond!.toFixed(0)} health writes/s vs raw better-sqlite3 ${mirror.rawInsertsPerSecond!.toFixed(0)}/s (raw ÷ mirror ${mirror.rawOverMirror!.toFixed(1)}×); overview() ${mirror.overviewMs!.toFixed(1)} ms; 365-day health history (${mirror.history365Points} points) ${mirror.history365Ms!.toFixed(2)} ms; a sync tick's planning (the job book, after 5 writes) ${mirror.tickPlanMs!.toFixed(2)} ms\n`,
  );
  process.stdout.write(
    `(per N: ${counts.map((n) => `${n}: ${hoursOf(n)} h × ${seedsOf(n)} seeds (cron ${cronSeedsOf(n)})`).join(', ')}; wall ${((performance.now() - wall) / 1000).toFixed(0)} s)\n`,
  );

  const json = {
    at: new Date().toISOString(),
    node: process.version,
    limitPerMinute: LIMIT_PER_MINUTE,
    days: views,
    runs: days.map(({ figures, ...d }) => ({
      ...d,
      figures,
    })),
    mirror,
  };
  if (smoke) return;
  writeFileSync('bench-results.json', `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write('figures written to bench-results.json\n');
}
