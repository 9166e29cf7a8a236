/**
 * The steady-state day is a portfolio's second day (issue 37). The 24 h grid measures an account added
 * yesterday whose first sync starts now: past the first day's rule (main/core/sync/firstDay.ts), so its
 * backfill takes its loan from the first minute, as the grid measured it before that rule. A first-hours run
 * (`windowsHours` set) adds the account at its first sync, and its first day gives every request to the
 * alert reads. The smallest N, a quarter of an hour: the first pass over the alert reads and a few changes.
 */
import { describe, expect, it } from 'vitest';
import { dayPlan } from '../../bench/day/dayPlan.ts';
import { ALERT_BEARING } from '../../bench/day/firstSync.ts';
import { simulateDay, type DayOptions } from '../../bench/day/simulatedDay.ts';

const DOMAINS = 50;
const HOURS = 0.25;

/** The engine's day; how many of its first-sync signals were read beyond the alert reads, and how often. */
async function engineDay(o: DayOptions) {
  const day = await simulateDay(o, 'engine');
  day.mirror.close();
  const alertReads = ['/domains/{id}/health', '/domains/{id}/failed-sources'];
  const backfillRequests = Object.entries(day.figures.byKind)
    .filter(([kind]) => kind !== '/domains' && !alertReads.includes(kind))
    .reduce((sum, [, tally]) => sum + tally.requests, 0);
  return {
    watchedMs: day.firstSync!.watchedMs,
    backfillSignals: day.firstSync!.backfillDone - DOMAINS * ALERT_BEARING.length,
    backfillRequests,
  };
}

describe('the steady-state day starts on day two', () => {
  it('backfills from its first minutes, while a first-hours run gives its first day to the alert reads', async () => {
    const steady = await engineDay(dayPlan(DOMAINS, HOURS));
    const firstHours = await engineDay({ ...dayPlan(DOMAINS, HOURS), windowsHours: [] });

    // Both watch every domain within the quarter hour (the alert reads' first pass: 100 reads at 54–57 a
    // minute); the day-two account reads scores, contexts and histories beside them — at the loan's 3 a
    // minute, ~40 in the quarter hour — and the first-day account reads none.
    expect(steady.watchedMs).not.toBeNull();
    expect(firstHours.watchedMs).not.toBeNull();
    expect(steady.backfillRequests).toBeGreaterThanOrEqual(30);
    expect(steady.backfillSignals).toBeGreaterThanOrEqual(30);
    expect(firstHours.backfillRequests).toBe(0);
    expect(firstHours.backfillSignals).toBe(0);
  }, 120_000);
});
