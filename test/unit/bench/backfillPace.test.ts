/**
 * The bench's backfill verdict (issue 37): a backfill the run saw end is reported as observed; one still going
 * when the run ends is extrapolated from the pace of the run's last hours — after the account's first 24 h,
 * when the backfill no longer yields — and labelled so; the verdict is NOT met when any seed misses the promise.
 */
import { describe, expect, it } from 'vitest';
import { backfillEnd, overrunMs } from '../../bench/day/backfillPace.ts';
import { backfillLine, backfillVerdict } from '../../bench/day/backfillVerdict.ts';

const HOUR = 3_600_000;
/** Samples every quarter hour: `slow` signals an hour for the first 24 h, `fast` after. */
function samples(untilH: number, slow: number, fast: number) {
  return Array.from({ length: untilH * 4 + 1 }, (_, i) => {
    const h = i / 4;
    return { atMs: h * HOUR, done: Math.round(slow * Math.min(h, 24) + fast * Math.max(0, h - 24)) };
  });
}

describe('the backfill against its promise', () => {
  it('reports an end the run saw as observed', () => {
    expect(backfillEnd(20 * HOUR, samples(24, 10, 10), 200)).toEqual({
      ms: 20 * HOUR,
      extrapolated: false,
      perMinute: null,
      paceHours: null,
    });
  });

  it('extrapolates from the pace after the first 24 h, not the first day’s slower one', () => {
    // 240 of 400 in at 24 h, 40 more an hour after: 160 left at 26 h → 2 h + 120/40 = 29 h.
    const end = backfillEnd(null, samples(26, 10, 40), 400);
    expect(end?.extrapolated).toBe(true);
    expect(end!.ms / HOUR).toBeCloseTo(26 + (400 - 320) / 40, 5);
    expect(end!.perMinute).toBeCloseTo(40 / 60, 5);
  });

  it('says NOT met when one seed misses the promise, and labels the extrapolation', () => {
    const v = backfillVerdict(
      [
        {
          firstSync: { backfilledMs: 20 * HOUR, backfillSignals: 200 },
          backfillSamples: samples(20, 10, 10),
        },
        { firstSync: { backfilledMs: null, backfillSignals: 1_000 }, backfillSamples: samples(26, 10, 40) },
      ],
      27 * HOUR,
    );
    expect(v.met).toBe(false);
    expect(backfillLine(v, 2)).toMatch(
      /20\.0\/20\.0\/20\.0 h \(observed\).*extrapolated.*promise 27\.0 h: NOT met/,
    );
  });

  it('runs an engine on to its promise when that is within 10 h, else to 2 h past the first day', () => {
    expect(overrunMs(24.5 * HOUR, 27 * HOUR, undefined) / HOUR).toBeCloseTo(3.5, 5);
    expect(overrunMs(24.5 * HOUR, 34 * HOUR, undefined) / HOUR).toBeCloseTo(10.5, 5);
    expect(overrunMs(25.3 * HOUR, 74 * HOUR, undefined) / HOUR).toBeCloseTo(0.7, 5);
    expect(overrunMs(30.2 * HOUR, 400 * HOUR, undefined)).toBe(0);
    expect(overrunMs(24.5 * HOUR, 27 * HOUR, '0')).toBe(0);
  });
});
