/**
 * The weekly slot of the digest in a person's zone: parsing "mon 08:00", the newest slot before a moment and
 * the next one, across both daylight-saving changes (a time that never happens, a time that happens twice).
 */
import { describe, expect, it } from 'vitest';
import {
  describeSlot,
  isTimeZone,
  latestSlot,
  nextSlot,
  parseWeeklyTime,
} from '../../../../main/core/alerts/weeklySlot.ts';

const iso = (t: number) => new Date(t).toISOString();
const at = (s: string) => Date.parse(s);

describe('weekly slots', () => {
  it('reads a day and a time as people write them, and refuses anything else', () => {
    expect(parseWeeklyTime('mon 08:00')).toEqual({ weekday: 1, hour: 8, minute: 0 });
    expect(parseWeeklyTime('Sunday 7:30')).toEqual({ weekday: 0, hour: 7, minute: 30 });
    expect(parseWeeklyTime(' FRI 23:59 ')).toEqual({ weekday: 5, hour: 23, minute: 59 });
    for (const bad of ['mon', '08:00', 'mon 24:00', 'mon 8:60', 'monday8:00', 'mo 08:00', 'mon 08:00 x'])
      expect(parseWeeklyTime(bad), bad).toBeNull();
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(describeSlot({ weekday: 1, hour: 8, minute: 5, timeZone: 'Europe/Berlin' })).toBe(
      'Mondays at 08:05 (Europe/Berlin)',
    );
  });

  it('Monday 08:00 in Berlin is 07:00 UTC in winter and 06:00 UTC once clocks went forward', () => {
    const s = { weekday: 1, hour: 8, minute: 0, timeZone: 'Europe/Berlin' };
    expect(iso(latestSlot(s, at('2026-03-30T05:59:59Z')))).toBe('2026-03-23T07:00:00.000Z');
    expect(iso(latestSlot(s, at('2026-03-30T06:00:00Z')))).toBe('2026-03-30T06:00:00.000Z');
    expect(iso(nextSlot(s, at('2026-03-26T10:00:00Z')))).toBe('2026-03-30T06:00:00.000Z');
    expect(iso(nextSlot(s, at('2026-03-30T06:00:00Z')))).toBe('2026-04-06T06:00:00.000Z');
    // And back to winter time in October.
    expect(iso(nextSlot(s, at('2026-10-21T00:00:00Z')))).toBe('2026-10-26T07:00:00.000Z');
  });

  it('a time the clocks skip is moved forward by the jump; a time they repeat is its first occurrence', () => {
    const s = { weekday: 0, hour: 2, minute: 30, timeZone: 'Europe/Berlin' };
    // 29 March 2026: 02:00 → 03:00, so 02:30 never happens; 03:30 CEST is 01:30 UTC.
    expect(iso(latestSlot(s, at('2026-03-29T12:00:00Z')))).toBe('2026-03-29T01:30:00.000Z');
    // 25 October 2026: 03:00 → 02:00, so 02:30 happens twice: first at 00:30 UTC (CEST).
    expect(iso(latestSlot(s, at('2026-10-25T12:00:00Z')))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(latestSlot(s, at('2026-10-25T01:00:00Z')))).toBe('2026-10-25T00:30:00.000Z');
  });

  it('works in zones behind UTC, across midnight UTC, and at half-hour offsets', () => {
    const ny = { weekday: 5, hour: 23, minute: 45, timeZone: 'America/New_York' };
    // Friday 23:45 in New York is Saturday 04:45 UTC in November (EST).
    expect(iso(latestSlot(ny, at('2026-11-07T12:00:00Z')))).toBe('2026-11-07T04:45:00.000Z');
    const kolkata = { weekday: 3, hour: 9, minute: 15, timeZone: 'Asia/Kolkata' };
    expect(iso(latestSlot(kolkata, at('2026-11-26T12:00:00Z')))).toBe('2026-11-25T03:45:00.000Z');
  });
});
