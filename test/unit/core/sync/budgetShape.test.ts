import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateBudget } from '../../../../shared/api/rateBudget.ts';
import { budgetShape } from '../../../../main/core/sync/budgetShape.ts';

/** The most requests sent within any 60-second window. */
function busiestMinute(sent: number[]): number {
  let most = 0;
  for (let i = 0, j = 0; i < sent.length; i++) {
    while (sent[i]! - sent[j]! >= 60_000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/** Drives a shaped budget: at each step, after a gap, take what the priority allows right now. */
function drive(limit: number, headroom: number, steps: { gap: number; edits: number }[]) {
  let now = 0;
  const shape = budgetShape(limit, headroom);
  const budget = new RateBudget({ ...shape, clock: { now: () => now, sleep: async () => undefined } });
  const sync: number[] = [];
  const all: number[] = [];
  for (const { gap, edits } of steps) {
    now += gap;
    for (let e = 0; e < edits && budget.tryReserve(1, { priority: 'foreground' }); e++) all.push(now);
    while (budget.tryReserve(1, { priority: 'background' })) {
      sync.push(now);
      all.push(now);
    }
  }
  return { shape, sync, all };
}

describe('budgetShape', () => {
  it('turns the default 60/minute with headroom 6 into a bucket of 12 refilling 54/minute (90 % of the limit)', () => {
    expect(budgetShape(60, 6)).toEqual({ capacity: 12, refillPerMinute: 54, headroom: 6 });
    expect(budgetShape(300, 10)).toEqual({ capacity: 40, refillPerMinute: 270, headroom: 10 });
    expect(budgetShape(5, 6)).toEqual({ capacity: 3, refillPerMinute: 4, headroom: 2 });
  });

  it('keeps background sync within the limit in every 60-second window, whatever the pattern', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 600 }),
        fc.integer({ min: 0, max: 20 }),
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 15_000 }), edits: fc.constant(0) }), {
          maxLength: 300,
        }),
        (limit, headroom, steps) => {
          const { shape, sync } = drive(limit, headroom, steps);
          expect(shape.headroom).toBeLessThan(shape.capacity);
          expect(busiestMinute(sync)).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('with the user editing too, stays within the limit plus the headroom', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 600 }),
        fc.integer({ min: 0, max: 20 }),
        fc.array(
          fc.record({ gap: fc.integer({ min: 0, max: 15_000 }), edits: fc.integer({ min: 0, max: 5 }) }),
          {
            maxLength: 300,
          },
        ),
        (limit, headroom, steps) => {
          const { shape, all } = drive(limit, headroom, steps);
          expect(busiestMinute(all)).toBeLessThanOrEqual(limit + shape.headroom);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('loses no refill between 5-second ticks: steady sync gets the full sustained rate', () => {
    const steps = Array.from({ length: 120 }, () => ({ gap: 5_000, edits: 0 }));
    const { sync } = drive(60, 6, steps);
    // 10 minutes of ticks after the initial burst of 6: 54 per minute.
    expect(sync.filter((t) => t > 0).length).toBeGreaterThanOrEqual(535);
  });
});
