/**
 * How long each N's day runs and when its changes happen. Changes start once the engine's first sync could
 * have ended (1.3 × the score and history backfill at the whole limit) and stop 2 alert periods of the
 * lower bound before the end, so every poller is judged in steady state and has time to see the last
 * change; about 20 breaks or threats an hour come between. A removed record stays removed for at least
 * 1.5 alert periods of the bound, so no poller can miss it by design.
 */
import type { DayOptions } from './simulatedDay.ts';
import { LIMIT_PER_MINUTE, lowerBound } from './lowerBound.ts';
import { ALERTS_FIRST_DAY_MS } from '../../../main/core/sync/firstDay.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * The steady-state day's account was added a day and a minute before its first sync: a portfolio added
 * yesterday whose first sync starts now, past its first day (main/core/sync/firstDay.ts), so the backfill
 * takes its loan from the start — the world the 24 h grid measured before the first day's rule. The
 * first-hours runs (firstHours.ts, `windowsHours` set) add the account at the first sync instead.
 */
export const STEADY_ACCOUNT_ADDED_BEFORE_MS = ALERTS_FIRST_DAY_MS + MINUTE;

/**
 * The default run per N: what fits `npm run bench` in a few minutes on 2 cores (a simulated hour costs
 * ~20 s of CPU per poller: 3,240 requests through the in-process service and a mirror). The engine and the
 * peer run every seed, the paced cron one (it is the far yardstick). BENCH_DAY_FULL=1 runs 24 h × 5 seeds of
 * every poller at 50, 200, 1,000 and 5,000 domains.
 */
export const DEFAULT_RUNS: readonly { domains: number; hours: number; seeds: number }[] = [
  { domains: 1000, hours: 4, seeds: 1 },
  { domains: 200, hours: 2, seeds: 5 },
  { domains: 50, hours: 1.5, seeds: 5 },
];

/**
 * The smoke run (test/unit/bench): the smallest N, one seed, every poller, a quarter of an hour — its first sync
 * and a few changes, to prove the day still runs to its table, not to compare.
 */
export const SMOKE_RUN = { domains: 50, hours: 0.25, seeds: 1 } as const;

/** The options of one N's day for seed number `seedIndex` (0, 1, …: the same day for every poller). */
export function dayPlan(domains: number, hours: number, seedIndex = 0): DayOptions {
  const bound = lowerBound(domains);
  const pages = Math.max(1, Math.ceil(domains / 100));
  const backfillMs = ((pages + 6 * domains) / LIMIT_PER_MINUTE) * MINUTE;
  const quietMs = Math.ceil((1.3 * backfillMs) / MINUTE) * MINUTE;
  const tailMs = Math.max(HOUR / 2, Math.ceil((2 * bound.alertPeriodMs) / MINUTE) * MINUTE);
  const steadyHours = Math.max(0.5, (hours * HOUR - quietMs - tailMs) / HOUR);
  return {
    domains,
    hours,
    seed: 20_260_615 + domains + 7_919 * seedIndex,
    roundTripMs: 100,
    events: Math.round(20 * steadyHours),
    quietMs,
    tailMs,
    minBreakMs: Math.max(HOUR, Math.ceil((1.5 * bound.alertPeriodMs) / MINUTE) * MINUTE),
  };
}
