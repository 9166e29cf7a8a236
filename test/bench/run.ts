/**
 * `npm run bench`: prints the figures behind the speed and memory targets (no pass/fail; compare runs).
 * Each benchmark builds its own data in memory and needs no server or network.
 *
 *   npm run bench                     the default run (a few minutes on 2 cores)
 *   npm run bench -- --full           the simulated day over the whole grid (24 h × 5 seeds at
 *                                     50, 200, 1,000 and 5,000 domains: hours of wall time)
 *   npm run bench -- --only=day,tick  only the named parts (planner, tick, mirror, ingest, report, day, grid, week, dns)
 *   BENCH_DAY_KEEP=<dir> npm run bench -- --only=grid
 *                                     the grid's table from the days kept in <dir> (min / median / max across
 *                                     seeds per N), running nothing
 *
 * The simulated week (`week`) runs only when named or with --full: its CPU is a week of the engine's requests.
 */
import { benchDay } from './day.bench.ts';
import { benchDnsWatch } from './dnsWatch.bench.ts';
import { benchGrid } from './grid.bench.ts';
import { benchIngest } from './ingest.bench.ts';
import { benchLargeReport } from './largeReport.bench.ts';
import { benchMirror } from './mirror.bench.ts';
import { benchMirrorFile } from './mirrorFile.bench.ts';
import { benchPlanner } from './planner.bench.ts';
import { benchTick } from './tick.bench.ts';
import { benchWeek } from './week.bench.ts';

const PARTS: Record<string, () => Promise<void>> = {
  planner: benchPlanner,
  tick: benchTick,
  mirror: benchMirror,
  'mirror-file': benchMirrorFile,
  ingest: benchIngest,
  report: benchLargeReport,
  day: benchDay,
  grid: benchGrid,
  // After the day: it reads the engine's measured p95 from the bench-results.json the day just wrote.
  dns: benchDnsWatch,
  week: benchWeek,
};
/** Parts too long for the default run. */
const NAMED_ONLY = new Set(['week']);

const args = process.argv.slice(2);
if (args.includes('--full')) process.env.BENCH_DAY_FULL = '1';
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const unknown = (only ?? []).filter((name) => !(name in PARTS));
if (unknown.length > 0) {
  process.stderr.write(
    `bench: unknown part ${unknown.join(', ')} (known: ${Object.keys(PARTS).join(', ')})\n`,
  );
  process.exit(2);
}

process.stdout.write(`Authwatch benchmarks — node ${process.version}, ${new Date().toISOString()}\n`);
const full = args.includes('--full');
for (const [name, run] of Object.entries(PARTS))
  if (only ? only.includes(name) : full || !NAMED_ONLY.has(name)) await run();
