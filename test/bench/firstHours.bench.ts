/**
 * The first hours (issue 37, day/firstHours.ts): the engine and the 30-line round-robin peer from the
 * account's first sync, p95 change→alert over the 1 h, 3 h, 6 h and 24 h windows, min / median / max across
 * seeds, per alert kind, against the bound, with met / NOT met per window; and the engine's backfill against
 * its promise (backfillPromiseMs), observed or — when the run ends first — extrapolated, met / NOT met.
 *
 * Every run covers the 24 h window and a tail (24.5 simulated h at 50 and 200 domains, 25.3 at 1,000, 30.2 at
 * 5,000); an engine run goes on past it, watching only the backfill, to its promise when that is at most 10 h
 * further (else to 26 h, for a pace after the first day's yielding): day/backfillPace.ts.
 *   default (`npm run bench`): 5 seeds at 50 and 200 domains, 1 at 1,000 (22 runs, ~40 min of CPU), and the
 *     windows up to 3 h over 20 seeds at 50 and 200 (60 runs more, cut after 3 h: SHORT_CUT_HOURS);
 *   `--full` (or BENCH_FIRST_FULL=1): 5 seeds at 50, 200, 1,000 and 5,000 (40 runs, ~75 min of CPU), the windows
 *     up to 3 h over 20 at 50, 200 and 1,000;
 *   `--smoke`: 50 domains, the 1 h window, one whole seed and one cut.
 * BENCH_FIRST_DOMAINS=1000,5000:2,200:5:20 (2 seeds at 5,000; 20 in 200's short windows) / BENCH_FIRST_SEEDS=k /
 * BENCH_FIRST_SHORT_SEEDS=k (the short windows' seeds at every size) / BENCH_FIRST_HOURS=h /
 * BENCH_FIRST_POLLERS=peer narrow it. BENCH_FIRST_KEEP=<dir> keeps each run's figures and reuses them — an engine's only when made at the same
 * clean commit (day/engineCommit.ts); BENCH_FIRST_REUSE=<dir> takes the peer's runs (same N, seed and hours)
 * from <dir>, keeping new ones there, so they run once across engine changes. Every run is its own process,
 * two at a time (BENCH_DAY_WIDTH).
 */
import {
  FIRST_HOURS_DEFAULT,
  FIRST_HOURS_FULL,
  FIRST_HOURS_SMOKE,
  FIRST_HOURS_WINDOWS,
  firstReadMs,
  SHORT_CUT_HOURS,
  type FirstHoursSize,
} from './day/firstHours.ts';
import { backfillVerdict } from './day/backfillVerdict.ts';
import { engineCommit, sameEngine } from './day/engineCommit.ts';
import { firstHoursTable, windowRows, type FirstHoursRun } from './day/firstHoursTable.ts';
import { backfillPromiseMs } from '../../main/core/sync/backfillPromise.ts';
import { pool, runWorker } from './day/workers.ts';
import type { Scale } from './scale.ts';

/** Runs every (N, poller, seed) of the scale and prints each N's table as its runs come in. */
export async function benchFirstHours(scale: Scale = 'default'): Promise<void> {
  const env = process.env;
  const wall = performance.now();
  const full = scale === 'full' || env.BENCH_FIRST_FULL === '1';
  const presets = scale === 'smoke' ? [FIRST_HOURS_SMOKE] : full ? FIRST_HOURS_FULL : FIRST_HOURS_DEFAULT;
  // "5000:1,1000": 1 seed at 5,000 domains, 5 (or BENCH_FIRST_SEEDS) at 1,000; "200:5:20": 20 in the short windows.
  const sizes: readonly (FirstHoursSize & { own?: boolean })[] = env.BENCH_FIRST_DOMAINS
    ? env.BENCH_FIRST_DOMAINS.split(',').map((size) => {
        const [n, seeds, short] = size.split(':');
        return {
          domains: Number(n),
          seeds: Number(seeds ?? 0) || 5,
          ...(short ? { shortSeeds: Number(short) } : {}),
          own: seeds !== undefined,
        };
      })
    : presets;
  const seedsOf = (s: { seeds: number; own?: boolean }) =>
    (!s.own && Number(env.BENCH_FIRST_SEEDS ?? 0)) || s.seeds;
  const hours =
    Number(env.BENCH_FIRST_HOURS ?? 0) ||
    (scale === 'smoke' ? FIRST_HOURS_SMOKE.hours : Math.max(...FIRST_HOURS_WINDOWS));
  // The short windows' extra seeds run cut after SHORT_CUT_HOURS (or the whole run, when it is shorter).
  const cut = Math.min(SHORT_CUT_HOURS, hours);
  const shortOf = (s: FirstHoursSize & { own?: boolean }) =>
    Math.max(seedsOf(s), Number(env.BENCH_FIRST_SHORT_SEEDS ?? 0) || (s.shortSeeds ?? 0));
  const seedCount = new Map(sizes.map((s) => [s.domains, shortOf(s)]));
  const pollers = (['engine', 'peer'] as const).filter(
    (p) => !env.BENCH_FIRST_POLLERS || env.BENCH_FIRST_POLLERS.split(',').includes(p),
  );
  // Seed by seed across the sizes (every size's first seed, then every size's second, …): a run stopped
  // part-way (a shared machine's deadline) leaves each size with its first seeds, engine and peer paired.
  const runs = sizes
    .flatMap((s) =>
      Array.from({ length: shortOf(s) }, (_, seed) =>
        pollers.map((poller) => ({ n: s.domains, seed, poller, cut: seed >= seedsOf(s) })),
      ).flat(),
    )
    .sort((a, b) => a.seed - b.seed);
  process.stdout.write(
    `\nfirst hours — engine vs 30-line round-robin peer (health + failed sources at 54/min, list hourly), windows ${FIRST_HOURS_WINDOWS.filter((w) => w <= hours).join(' / ')} h from the first sync\n`,
  );
  const done: FirstHoursRun[] = [];
  const left = new Map<number, number>();
  for (const r of runs) left.set(r.n, (left.get(r.n) ?? 0) + 1);
  const verdicts: string[] = [];
  const commit = engineCommit();
  const keepOf = (poller: string) =>
    poller === 'peer' ? (env.BENCH_FIRST_REUSE ?? env.BENCH_FIRST_KEEP) : env.BENCH_FIRST_KEEP;
  await pool(
    runs.map(
      (r) => () =>
        runWorker(
          ['first', String(r.n), String(hours), r.poller, String(r.seed), ...(r.cut ? [String(cut)] : [])],
          { BENCH_DAY_SEEDS_OF: String(seedCount.get(r.n)) },
          keepOf(r.poller),
          r.poller === 'engine' ? { accept: (kept) => sameEngine(kept, commit), stamp: { commit } } : {},
        ),
    ),
    Number(env.BENCH_DAY_WIDTH ?? 0) || 2,
    (i, result) => {
      const r = runs[i]!;
      done.push(result as unknown as FirstHoursRun);
      left.set(r.n, left.get(r.n)! - 1);
      if (left.get(r.n)! > 0) return;
      const promiseMs = backfillPromiseMs(r.n);
      process.stdout.write(`\n${firstHoursTable(r.n, done, firstReadMs(r.n), promiseMs)}\n`);
      for (const row of windowRows(r.n, done))
        verdicts.push(
          `  N=${r.n}, ${row.hours} h: engine ÷ peer ${row.ratio ? row.ratio.median.toFixed(2) : '—'}× over ${row.seeds} seeds, pooled ${row.pooledRatio === null ? '—' : row.pooledRatio.toFixed(2)}× (${row.met === null ? 'no change yet' : row.met ? 'met' : 'NOT met'})`,
        );
      const engine = done.filter(
        (d) => d.domains === r.n && d.poller === 'engine' && d.cutHours === undefined,
      );
      const backfill = backfillVerdict(engine, promiseMs);
      if (engine.length)
        verdicts.push(
          `  N=${r.n}, backfill within its promise (${(promiseMs / 3_600_000).toFixed(1)} h, every seed): ${backfill.met === null ? 'unknown' : backfill.met ? 'met' : 'NOT met'}${backfill.extrapolated ? ' (extrapolated on some seeds)' : ''}`,
        );
    },
  );
  process.stdout.write(
    `\nfirst-hours targets: engine p95 ≤ peer (seed median), every window; the backfill in within its promise\n${verdicts.join('\n')}\n`,
  );
  process.stdout.write(`(first hours: wall ${((performance.now() - wall) / 1000).toFixed(0)} s)\n`);
}
