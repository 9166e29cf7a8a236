import { describe, expect, it } from 'vitest';
import { backfillWords, type SyncLine } from '../../../renderer/src/lib/syncLine.ts';
import { duration } from '../../../renderer/src/lib/format.ts';

type Backfill = Extract<SyncLine, { kind: 'history_backfill' }>;
const HOUR = 3_600_000;
// 10:41 local time, so the words read the same in every time zone.
const now = new Date(2026, 10, 29, 10, 41).getTime();
const line = (over: Partial<Backfill> = {}): Backfill => ({
  kind: 'history_backfill',
  done: 0,
  total: 1000,
  etaSeconds: null,
  startsAt: null,
  ...over,
});

describe('the history backfill in words (issue 37)', () => {
  it('during the first day says the alert reads come first, when the backfill starts and when it is done', () => {
    const words = backfillWords(
      line({ startsAt: new Date(now + 24 * HOUR).toISOString(), etaSeconds: 74 * 3600 }),
      now,
      duration,
      'en-GB',
    );
    expect(words).toBe(
      'History back-filled for 0 of 1,000 domains — the first day’s alert reads come first; starts at 10:41 tomorrow, done in about 3 days',
    );
  });

  it('says today when the day ends later today, and no ETA when none is known', () => {
    const words = backfillWords(
      line({ startsAt: new Date(now + 2 * HOUR).toISOString() }),
      now,
      duration,
      'en-GB',
    );
    expect(words).toBe(
      'History back-filled for 0 of 1,000 domains — the first day’s alert reads come first; starts at 12:41 today',
    );
  });

  it('once it runs, says how far it is and the time left, as before', () => {
    expect(backfillWords(line({ done: 312, etaSeconds: 34 * 3600 }), now, duration, 'en-US')).toBe(
      'History back-filled for 312 of 1,000 domains · about 34 h left',
    );
    // A start already past is not announced.
    expect(
      backfillWords(line({ done: 5, startsAt: new Date(now - HOUR).toISOString() }), now, duration),
    ).toMatch(/^History back-filled for 5 of 1,?000 domains$/);
  });
});
