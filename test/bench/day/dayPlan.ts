/**
 * How long each N's day runs and when its changes happen. Changes start once the first sync could have
 * ended (1.3 × the backfill minimum) and stop 1.5 alert periods before the end, so both pollers are judged
 * in steady state and have time to see the last change; about 20 breaks or threats an hour come between.
 */
import type { DayOptions } from './simulatedDay.ts';
import { minimums } from './theoreticalMinimum.ts';

const HOUR = 3_600_000;

/** Default simulated hours per N: what fits `npm run bench` in 3 minutes on 2 cores (BENCH_DAY_HOURS=24 for a full day). */
export const DEFAULT_HOURS: Readonly<Record<number, number>> = { 50: 3, 200: 3, 1000: 6 };

/** The options of one N's day. */
export function dayPlan(domains: number, hours: number): DayOptions {
  const min = minimums(domains);
  const quietMs = Math.ceil((1.3 * min.backfillMs) / 60_000) * 60_000;
  const tailMs = Math.max(HOUR / 2, Math.ceil((2 * min.alertPeriodMs) / 60_000) * 60_000);
  const steadyHours = Math.max(0.5, (hours * HOUR - quietMs - tailMs) / HOUR);
  return {
    domains,
    hours,
    seed: 20_260_615 + domains,
    roundTripMs: 100,
    events: Math.round(20 * steadyHours),
    quietMs,
    tailMs,
    minBreakMs: Math.max(HOUR, Math.ceil((1.5 * min.alertPeriodMs) / 60_000) * 60_000),
  };
}
