/**
 * The first hours (issue 37): p95 change→alert over windows that start at the account's first sync — 1 h,
 * 3 h, 6 h — where the steady-state day (dayPlan.ts) starts its changes only after the first sync's backfill.
 * A user judges the app in those hours, while the engine also reads every domain's score, DNS changes and
 * histories once; the 30-line peer spends everything on health and failed sources from the first minute.
 *
 * One run per (N, poller, seed) covers every window: its changes fall from the first moment any poller at
 * 54 a minute can have read every domain once (before that a removal is a first reading, a baseline that
 * nobody can alert on) to the end of the longest window, and the run goes on for a tail so the last change
 * can be told. A window's figure is the p95 of the changes made within it (changeLatency on that prefix of
 * the stream: its matching is greedy in change order, so a prefix matches as the whole run does).
 */
import { backfillPromiseMs } from '../../../main/core/sync/backfillPromise.ts';
import { overrunMs } from './backfillPace.ts';
import { ALERT_KINDS, changeLatency, percentile, type AlertKind } from './changeLatency.ts';
import type { Change } from './changeStream.ts';
import { dayPlan } from './dayPlan.ts';
import { EDIT_RESERVE, LIMIT_PER_MINUTE, lowerBound } from './lowerBound.ts';
import type { DayOptions } from './simulatedDay.ts';
import type { Mirror } from '../../../main/core/mirror/types.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * The windows, hours from the first sync. The 24 h window is the account's whole first day (the steady-state
 * grid, day.bench.ts, starts its changes after the backfill instead).
 */
export const FIRST_HOURS_WINDOWS: readonly number[] = [1, 3, 6, 24];

/**
 * The short windows' seeds. The 1 h window holds 12–25 changes a seed at 50 and 200 domains (4–12 at 1,000),
 * so its p95 is about the seed's largest wait: one seed's engine ÷ peer swings by ±10 % (0.80–1.24 over 20
 * seeds at 200 domains) around the 5 % the engine's 57 a minute gives it over the peer's 54, and a median of 5
 * seeds cannot tell them apart. The windows up to SHORT_CUT_HOURS are taken over `shortSeeds` seeds: the whole
 * runs' seeds and then runs of the next seeds cut after SHORT_CUT_HOURS (simulatedDay's cutHours — the same
 * seeded day, so the same figures for those windows at a seventh of the cost).
 */
export const SHORT_CUT_HOURS = 3;

/** One size of a preset: its whole runs' seeds and the short windows' (SHORT_CUT_HOURS). */
export interface FirstHoursSize {
  domains: number;
  seeds: number;
  shortSeeds?: number;
}

/** Per N: how many seeds the default run takes (`--full` and BENCH_FIRST_* widen it). */
export const FIRST_HOURS_DEFAULT: readonly FirstHoursSize[] = [
  { domains: 1000, seeds: 1 },
  { domains: 200, seeds: 5, shortSeeds: 20 },
  { domains: 50, seeds: 5, shortSeeds: 20 },
];
/** At 5,000 domains no change falls in the short windows (the first reading of every domain takes 3.1 h). */
export const FIRST_HOURS_FULL: readonly FirstHoursSize[] = [
  { domains: 5000, seeds: 5 },
  { domains: 1000, seeds: 5, shortSeeds: 20 },
  { domains: 200, seeds: 5, shortSeeds: 20 },
  { domains: 50, seeds: 5, shortSeeds: 20 },
];
/** The smoke case (test/unit/bench): 50 domains, the 1 h window, one whole run's seed and one cut run's. */
export const FIRST_HOURS_SMOKE = { domains: 50, seeds: 1, shortSeeds: 2, hours: 1 } as const;

/** When the first change may come: every domain read once at the peer's pace, the domain list first. */
export function firstReadMs(domains: number): number {
  const pages = Math.max(1, Math.ceil(domains / 100));
  return Math.ceil((pages + 2 * domains) / (LIMIT_PER_MINUTE - EDIT_RESERVE)) * MINUTE;
}

/** The day of one first-hours run: changes up to `hours` after the first sync, then a tail. */
export function firstHoursPlan(domains: number, hours: number, seedIndex = 0): DayOptions {
  const steady = dayPlan(domains, hours, seedIndex);
  const quietMs = firstReadMs(domains);
  const changingHours = Math.max(0, hours - quietMs / HOUR);
  return {
    ...steady,
    // Another day than the steady state's (its seed), the same kind of day: ~20 breaks or threats an hour.
    seed: steady.seed + 104_729,
    hours: hours + steady.tailMs / HOUR,
    events: Math.round(20 * changingHours),
    quietMs,
  };
}

/**
 * How long the engine's run goes on after the changes' tail to watch its backfill (backfillPace.ts), against
 * the promise at N domains; none for a run shorter than the first day (the smoke's hour, a narrowed run:
 * the backfill waits for the day's end, so there is nothing to watch) unless BENCH_FIRST_OVERRUN_H asks.
 */
export function firstHoursOverrunMs(domains: number, hours: number): number {
  if (hours < 24 && !process.env.BENCH_FIRST_OVERRUN_H) return 0;
  const plan = firstHoursPlan(domains, hours);
  return overrunMs(plan.hours * HOUR, backfillPromiseMs(domains));
}

/** One window's figures of one poller's run. */
export interface WindowFigures {
  hours: number;
  changes: number;
  missed: number;
  p95Ms: number | null;
  p95ByKindMs: Record<AlertKind, number | null>;
  /** Every change's latency, ascending (the seeds' pooled p95; absent in runs kept before it was). */
  latenciesMs?: number[];
}

/** Every window's figures from the run's mirror. */
export function windowFigures(
  mirror: Mirror,
  accountId: number,
  changes: readonly Change[],
  fqdnOf: (domainIndex: number) => string,
  start: number,
  windows: readonly number[],
): WindowFigures[] {
  return windows.map((hours) => {
    const within = changes.filter((c) => c.at < start + hours * HOUR);
    const latency = changeLatency(mirror, accountId, within, fqdnOf);
    const byKind = Object.fromEntries(
      ALERT_KINDS.map((k) => [
        k,
        percentile(
          [...latency.byKind[k].samples].sort((a, b) => a - b),
          95,
        ),
      ]),
    ) as Record<AlertKind, number | null>;
    return {
      hours,
      changes: within.length,
      missed: latency.missed,
      p95Ms: latency.p95Ms,
      p95ByKindMs: byKind,
      latenciesMs: [...latency.samples].sort((a, b) => a - b),
    };
  });
}

/** The bound's p95 for N domains (the steady state's: 2 reads a domain at 54 a minute). */
export function windowBoundMs(domains: number): number {
  return lowerBound(domains).p95Ms;
}
