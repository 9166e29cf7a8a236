/**
 * The 24-hour grid from the days kept in BENCH_DAY_KEEP (see day.bench.ts): prints the table of every N and
 * poller kept there, min / median / max across seeds, without running a day. Run the days in pieces with
 * `BENCH_DAY_FULL=1 BENCH_DAY_KEEP=<dir> npm run bench -- --only=day` (or one worker at a time), then
 * `BENCH_DAY_KEEP=<dir> npm run bench -- --only=grid`.
 */
import { existsSync } from 'node:fs';
import { gridRows, gridTable, readKeptDays } from './day/gridSummary.ts';

/** Prints the grid of the kept days, or why there is none. */
export async function benchGrid(): Promise<void> {
  const dir = process.env.BENCH_DAY_KEEP;
  if (!dir || !existsSync(dir)) {
    process.stdout.write('\ngrid: no kept days (BENCH_DAY_KEEP=<dir> names where the day runs keep them)\n');
    return;
  }
  const days = readKeptDays(dir);
  process.stdout.write(
    `\nthe grid from ${days.length} days kept in ${dir}\n\n${gridTable(gridRows(days))}\n`,
  );
}
