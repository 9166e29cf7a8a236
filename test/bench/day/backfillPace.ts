/**
 * The engine's backfill against its promise (issue 37): how far the backfill got at each simulated quarter of
 * an hour, and — when a run ends before it is in — when it would be in at the pace measured last. The
 * account's first 24 h the backfill yields to the alert reads and goes slower, so the pace is taken from the
 * run's last hours, after that day where the run reaches it (a first-day pace would overstate the time).
 */

const HOUR = 3_600_000;

/** How many of the backfill's signals were in, `atMs` after the first sync. */
export interface BackfillSample {
  atMs: number;
  done: number;
}

/** When the backfill is (or would be) complete, ms after the first sync. */
export interface BackfillEnd {
  ms: number;
  /** True when the run ended first and `ms` comes from the pace of its last `paceHours`. */
  extrapolated: boolean;
  /** Signals a minute over the samples the extrapolation used (null when observed). */
  perMinute: number | null;
  paceHours: number | null;
}

/** The samples' pace over their last `windowMs` (no earlier than `notBeforeMs` when the run reaches past it). */
function lastPace(samples: readonly BackfillSample[], windowMs: number, notBeforeMs: number) {
  const last = samples[samples.length - 1]!;
  const from = Math.max(last.atMs - windowMs, last.atMs > notBeforeMs + HOUR / 2 ? notBeforeMs : 0);
  const first = samples.find((s) => s.atMs >= from) ?? samples[0]!;
  const spanMs = last.atMs - first.atMs;
  return { perMs: spanMs > 0 ? (last.done - first.done) / spanMs : 0, spanMs };
}

/**
 * The backfill's end: observed when `backfilledMs` is set, else extrapolated from the samples' last 2 h
 * (after the first 24 h where the run got there); null when nothing moved in them (no pace to go on).
 */
export function backfillEnd(
  backfilledMs: number | null,
  samples: readonly BackfillSample[],
  signals: number,
): BackfillEnd | null {
  if (backfilledMs !== null)
    return { ms: backfilledMs, extrapolated: false, perMinute: null, paceHours: null };
  if (samples.length < 2) return null;
  const last = samples[samples.length - 1]!;
  const pace = lastPace(samples, 2 * HOUR, 24 * HOUR);
  if (pace.perMs <= 0) return null;
  return {
    ms: last.atMs + (signals - last.done) / pace.perMs,
    extrapolated: true,
    perMinute: pace.perMs * 60_000,
    paceHours: pace.spanMs / HOUR,
  };
}

/**
 * How long an engine run goes on after its changes' tail, watching only the backfill: to its promise and an
 * hour beyond when that is at most 10 h away (the verdict then observed, not extrapolated), else until 2 h
 * after the account's first 24 h (a pace without the first day's yielding to extrapolate from); it stops
 * early once the backfill is in. BENCH_FIRST_OVERRUN_H sets it.
 */
export function overrunMs(runMs: number, promiseMs: number, env = process.env.BENCH_FIRST_OVERRUN_H): number {
  if (env !== undefined && env !== '') return Number(env) * HOUR;
  if (promiseMs - runMs <= 10 * HOUR) return Math.max(0, promiseMs - runMs + HOUR);
  return Math.max(0, 26 * HOUR - runMs);
}
