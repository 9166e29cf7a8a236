/**
 * BENCH_DAY_KEEP=<dir>: each worker's figures are kept in `dir` as one JSON file per (N, hours, poller, seed)
 * and read back instead of running that day again. A 24-hour grid then runs in pieces (one N at a time, in
 * the background, on a shared machine) and the last run prints the whole table from what the pieces kept;
 * the peer's and the cron poller's days do not change with the engine, so they are run once. Delete the
 * engine's files after changing the engine.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs `run` for `args` unless `dir` holds its figures already (and `accept` takes them); keeps what it
 * returns in `dir`.
 */
export async function keptDay(
  dir: string | undefined,
  args: readonly string[],
  run: () => Promise<Record<string, unknown>>,
  accept: (kept: Record<string, unknown>) => boolean = () => true,
): Promise<Record<string, unknown>> {
  if (!dir) return run();
  const file = join(dir, `${args.join('-')}.json`);
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    // A file without figures marks a day that never finished (an outside runner's placeholder): run it.
    if (('figures' in kept || 'mirror' in kept) && accept(kept)) return kept;
  }
  const figures = await run();
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(figures)}\n`);
  return figures;
}
