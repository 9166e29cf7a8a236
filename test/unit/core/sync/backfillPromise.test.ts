import { describe, expect, it } from 'vitest';
import {
  backfillEtaMs,
  backfillPromiseMs,
  backfillReadsPerDomain,
  backfillRoomPerMinute,
} from '../../../../main/core/sync/backfillPromise.ts';

const HOUR = 3_600_000;

describe('the backfill’s promise (issue 37)', () => {
  it('counts a domain’s backfill from the signals: 9 reads (11 signals less the 2 alert reads)', () => {
    expect(backfillReadsPerDomain()).toBe(9);
  });

  it('promises the first day plus the reads at the loan: 50 → 26.5 h, 200 → 34 h, 1,000 → 74 h', () => {
    expect(backfillPromiseMs(50) / HOUR).toBeCloseTo(26.5, 2);
    expect(backfillPromiseMs(200) / HOUR).toBeCloseTo(34, 2);
    expect(backfillPromiseMs(1000) / HOUR).toBeCloseTo(74, 2);
    // A large portfolio backfills on its share and the loan, 3.54 a minute: ~9.8 days at 5,000.
    expect(backfillRoomPerMinute(5000)).toBeCloseTo(3.54, 6);
    expect(backfillPromiseMs(5000) / HOUR / 24).toBeCloseTo(9.83, 1);
  });

  it('backfills at once where the alert reads leave room: 28 domains in minutes, 29 after the first day', () => {
    expect(backfillRoomPerMinute(28)).toBeNull();
    expect(backfillPromiseMs(28)).toBeLessThan(10 * 60_000);
    expect(backfillRoomPerMinute(29)).toBe(3);
    expect(backfillPromiseMs(29)).toBeGreaterThan(24 * HOUR);
  });

  it('gives the ETA by the same model: the day left, then the reads left at the room', () => {
    expect(backfillEtaMs(1800, 3, 2 * HOUR)).toBe(12 * HOUR);
    expect(backfillEtaMs(90, 3, -5)).toBe(30 * 60_000);
  });
});
