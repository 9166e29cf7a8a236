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
function drive(limit: number, headroom: number, steps: { gap: number; edits: number }[], lent = 0) {
  let now = 0;
  const shape = budgetShape(limit, headroom);
  const budget = new RateBudget({ ...shape, clock: { now: () => now, sleep: async () => undefined } });
  budget.lend(lent);
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

/** A token's limit, its edit headroom and a pattern of gaps with the user's edits. */
const tokenWithEdits = [
  fc.integer({ min: 3, max: 600 }),
  fc.integer({ min: 0, max: 20 }),
  fc.array(fc.record({ gap: fc.integer({ min: 0, max: 15_000 }), edits: fc.integer({ min: 0, max: 5 }) }), {
    maxLength: 300,
  }),
] as const;

describe('budgetShape', () => {
  it('turns the default 60/minute with headroom 6 into a bucket of 12 refilling 54/minute (90 % of the limit)', () => {
    expect(budgetShape(60, 6)).toEqual({
      capacity: 12,
      refillPerMinute: 54,
      headroom: 6,
      windowLimit: 60,
      windowReserve: 3,
    });
    expect(budgetShape(300, 10)).toEqual({
      capacity: 40,
      refillPerMinute: 270,
      headroom: 10,
      windowLimit: 300,
      windowReserve: 15,
    });
    expect(budgetShape(5, 6)).toEqual({
      capacity: 3,
      refillPerMinute: 4,
      headroom: 2,
      windowLimit: 5,
      windowReserve: 1,
    });
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

  it('with the user editing too, stays within the limit', () => {
    fc.assert(
      fc.property(...tokenWithEdits, (limit, headroom, steps) => {
        const { all } = drive(limit, headroom, steps);
        expect(busiestMinute(all)).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 200 },
    );
  });

  it('while a backfill borrows from the edits’ share, keeps the sync to the limit less the reserve and everything to the limit', () => {
    fc.assert(
      fc.property(...tokenWithEdits, (limit, headroom, steps) => {
        const shape = budgetShape(limit, headroom);
        const { sync, all } = drive(limit, headroom, steps, shape.refillPerMinute / 18);
        expect(busiestMinute(sync)).toBeLessThanOrEqual(limit - shape.windowReserve);
        expect(busiestMinute(all)).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 200 },
    );
  });

  it('lends the backfill 3 a minute at 60: steady sync gets 57 where it got 54, and an edit still goes at once', () => {
    const steps = Array.from({ length: 240 }, () => ({ gap: 5_000, edits: 0 }));
    const { sync } = drive(60, 6, steps, 3);
    const lastTenMinutes = sync.filter((t) => t > 10 * 60_000);
    expect(lastTenMinutes.length / 10).toBeGreaterThanOrEqual(56.5);
    const edited = drive(60, 6, [...steps, { gap: 5_000, edits: 3 }], 3);
    expect(edited.all.length - edited.sync.length).toBe(3);
  });

  it('loses no refill between 5-second ticks: steady sync gets the full sustained rate', () => {
    const steps = Array.from({ length: 120 }, () => ({ gap: 5_000, edits: 0 }));
    const { sync } = drive(60, 6, steps);
    // 10 minutes of ticks after the initial burst of 6: 54 per minute.
    expect(sync.filter((t) => t > 0).length).toBeGreaterThanOrEqual(535);
  });
});
