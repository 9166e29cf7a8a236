import { describe, expect, it } from 'vitest';
import { openServiceDb } from '../../../../service/db/openServiceDb.ts';
import type { DayWindow } from '../../../../service/reports/mailVolume.ts';
import { sendingSources } from '../../../../service/reports/sendingSources.ts';

const window: DayWindow = { start_date: '2026-05-16', end_date: '2026-06-15' };

describe('sendingSources', () => {
  it('writes the limit into its SQL only as a whole number', () => {
    const db = openServiceDb(':memory:');
    expect(sendingSources(db, 1, window, { failingOnly: true, limit: 100 })).toEqual([]);
    for (const limit of [1.5, -1, Number.NaN, '1; DROP TABLE domains' as unknown as number])
      expect(() => sendingSources(db, 1, window, { failingOnly: true, limit })).toThrow(
        /limit must be a whole number/,
      );
    db.close();
  });
});
