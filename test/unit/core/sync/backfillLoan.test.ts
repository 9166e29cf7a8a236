import { describe, expect, it } from 'vitest';
import { RateBudget } from '../../../../shared/api/rateBudget.ts';
import { budgetShape, tickSpendable } from '../../../../main/core/sync/budgetShape.ts';
import { DEFAULT_TICK_MS } from '../../../../main/core/sync/scheduler.ts';
import { BookWorld } from './bookWorld.ts';

const MIN = 60_000;
/** The job runner's width and one request's round trip: a tick's requests go out over its first 100s of ms. */
const WIDTH = 4;
const ROUND_TRIP_MS = 100;

/**
 * The syncer's ticks at the scheduler's pace with the production budget (60 a minute, headroom 6) and the
 * production job book (every signal of the registry, tiered; an account past its first day), each request
 * taking the budget when the runner sends it (WIDTH at a time, one round trip apart) and waiting for it as
 * the API client does. Returns every request's time and tier.
 */
function simulate(domains: number, minutes: number) {
  let now = 0;
  const shape = budgetShape(60, 6);
  const budget = new RateBudget({ ...shape, clock: { now: () => now, sleep: async () => undefined } });
  const world = new BookWorld(domains, 0);
  const book = world.book();
  const sent: { at: number; tier: string }[] = [];
  for (let tick = 0; tick <= minutes * MIN; tick += DEFAULT_TICK_MS) {
    now = Math.max(now, tick);
    const { picked, allocation } = book.plan(now, {
      capacityPerMinute: shape.refillPerMinute,
      spendable: tickSpendable(budget),
      burst: shape.capacity - shape.headroom,
    });
    budget.lend(allocation?.backfillLoanPerMinute ?? 0);
    picked.forEach((job, i) => {
      now = Math.max(now, tick + Math.floor(i / WIDTH) * ROUND_TRIP_MS);
      now += budget.waitTimeMs(1, { priority: 'background' });
      expect(budget.tryReserve(1, { priority: 'background' })).toBe(true);
      world.succeed(job.domainId, job.signal, now);
      sent.push({ at: now, tier: job.tier! });
    });
  }
  return sent;
}

describe('the backfill’s loan is spent (issue 37)', () => {
  it('backfills 200 domains at ~3 a minute while the alert reads keep 54 a minute, no 60 s over 57', () => {
    // Every domain is watched within ~8 minutes; from then on the sync is 54 a minute for the alert reads and
    // 3 lent for the backfill. A tick's requests go out over ~100 ms, so at 60 s the last of a batch was not
    // yet out of the 60 s window: planning only what the window held free at the tick's instant left those
    // slots to the next tick, and the sync ran at ~56, the alert reads taking the backfill's part.
    const sent = simulate(200, 40);
    const from = 10 * MIN;
    const span = sent.filter((s) => s.at >= from);
    const minutes = (40 * MIN - from) / MIN;
    const backfill = span.filter((s) => s.tier === 'context' || s.tier === 'history').length / minutes;
    const alert = span.filter((s) => s.tier === 'alert').length / minutes;
    expect(backfill).toBeGreaterThanOrEqual(2.5);
    expect(alert).toBeGreaterThanOrEqual(54);
    let busiest = 0;
    for (let i = 0, j = 0; i < sent.length; i++) {
      while (sent[j]!.at <= sent[i]!.at - MIN) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    expect(busiest).toBeLessThanOrEqual(57);
  });
});
