/**
 * Progress of a long benchmark on stderr, so a person sees it working while stdout holds only the tables:
 * one self-describing line (which part, size, seed, how far in simulated time) at most every few seconds of
 * wall time. BENCH_QUIET=1 silences it (the smoke tests).
 */

/** Wall time between two lines of one task. */
const EVERY_MS = 10_000;

/** A task's progress reporter: call it as often as convenient; it prints only when a line is due. */
export type Progress = (doneText: string) => void;

/** A reporter for the task `label` (e.g. "day 200 domains, engine, seed 2/5"). */
export function progress(label: string, everyMs = EVERY_MS): Progress {
  const started = performance.now();
  let last = started;
  return (doneText) => {
    const now = performance.now();
    if (now - last < everyMs || process.env.BENCH_QUIET === '1') return;
    last = now;
    const cpu = process.cpuUsage();
    process.stderr.write(
      `  … ${label}: ${doneText} (${((now - started) / 1000).toFixed(0)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s CPU in this process)\n`,
    );
  };
}

/** Simulated time as "1.5 of 4 h" / "12 of 45 min". */
export function simulated(doneMs: number, totalMs: number): string {
  const hours = totalMs >= 2 * 3_600_000;
  const unit = hours ? 3_600_000 : 60_000;
  return `simulated ${(doneMs / unit).toFixed(hours ? 1 : 0)} of ${(totalMs / unit).toFixed(hours ? 1 : 0)} ${hours ? 'h' : 'min'}`;
}
