import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateBudget } from '../../../../shared/api/rateBudget.ts';
import { budgetShape } from '../../../../main/core/sync/budgetShape.ts';

describe('budgetShape', () => {
  it('turns the default 60/minute with headroom 6 into a bucket of 10 refilling 50/minute', () => {
    expect(budgetShape(60, 6)).toEqual({ capacity: 10, refillPerMinute: 50, headroom: 6 });
    expect(budgetShape(300, 10)).toEqual({ capacity: 50, refillPerMinute: 250, headroom: 10 });
    expect(budgetShape(5, 6)).toEqual({ capacity: 4, refillPerMinute: 1, headroom: 2 });
  });

  it('never lets our traffic exceed the limit in any 60-second window, whatever the request pattern', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 600 }),
        fc.integer({ min: 0, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 400 }),
        (limit, headroom, gaps) => {
          let now = 0;
          const shape = budgetShape(limit, headroom);
          expect(shape.headroom).toBeLessThan(shape.capacity);
          const budget = new RateBudget({
            ...shape,
            clock: { now: () => now, sleep: async () => undefined },
          });
          const sent: number[] = [];
          for (const gap of gaps) {
            now += gap;
            // Take everything the bucket allows at this instant (foreground: the headroom too).
            while (budget.tryReserve(1)) sent.push(now);
          }
          for (let i = 0, j = 0; i < sent.length; i++) {
            while (sent[i]! - sent[j]! >= 60_000) j++;
            expect(i - j + 1).toBeLessThanOrEqual(limit);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
