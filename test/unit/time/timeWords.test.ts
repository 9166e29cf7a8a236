import { describe, expect, it } from 'vitest';
import { absoluteTime, durationWords, relativeTime, timeInWords } from '../../../shared/time/timeWords.ts';

const NOW = Date.parse('2026-11-26T07:00:00Z');
const en = { locale: 'en-US', timeZone: 'UTC' };

describe('the one time format', () => {
  it('says how long ago in words, past and future', () => {
    expect(relativeTime('2026-11-26T06:59:30Z', NOW, en)).toBe('just now');
    expect(relativeTime('2026-11-26T06:48:00Z', NOW, en)).toBe('12 minutes ago');
    expect(relativeTime('2026-11-26T04:00:00Z', NOW, en)).toBe('3 hours ago');
    expect(relativeTime('2026-11-25T07:00:00Z', NOW, en)).toBe('yesterday');
    expect(relativeTime('2026-11-20T07:00:00Z', NOW, en)).toBe('6 days ago');
    expect(relativeTime('2026-08-20T07:00:00Z', NOW, en)).toBe('3 months ago');
    expect(relativeTime('2023-11-20T07:00:00Z', NOW, en)).toBe('3 years ago');
    expect(relativeTime('2026-11-26T09:00:00Z', NOW, en)).toBe('in 2 hours');
  });

  it('writes the absolute time in the local zone with the zone named', () => {
    expect(absoluteTime('2026-11-26T06:58:00Z', en)).toBe('Nov 26, 2026, 6:58 AM UTC');
    expect(absoluteTime('2026-11-26T06:58:00Z', { locale: 'en-US', timeZone: 'America/New_York' })).toBe(
      'Nov 26, 2026, 1:58 AM EST',
    );
  });

  it('joins both where there is no hover, and leaves an unreadable time as it came', () => {
    expect(timeInWords('2026-11-26T06:48:00Z', NOW, en)).toBe('12 minutes ago (Nov 26, 2026, 6:48 AM UTC)');
    expect(relativeTime('not a time', NOW, en)).toBe('not a time');
    expect(absoluteTime('not a time', en)).toBe('not a time');
  });

  it('says a span in words', () => {
    expect(durationWords(30_000)).toBe('under a minute');
    expect(durationWords(60_000)).toBe('1 minute');
    expect(durationWords(17 * 60_000)).toBe('17 minutes');
    expect(durationWords(5 * 3_600_000)).toBe('5 hours');
    expect(durationWords(3 * 86_400_000)).toBe('3 days');
  });
});
