import { latestSlot } from './weeklySlot.ts';
import type { AlertMatchers } from './matchers.ts';

/**
 * A recurring maintenance window ("Sundays 02:00–04:00, Europe/Berlin, group Regional"): while open it holds
 * the alerts it matches exactly as a silence does. The time is the wall clock in its zone, so it stays 02:00
 * across daylight-saving changes.
 */
export interface MaintenanceWindow {
  id: number;
  name: string;
  matchers: AlertMatchers;
  /** 0 = Sunday … 6 = Saturday. */
  weekdays: number[];
  hour: number;
  minute: number;
  durationMinutes: number;
  timeZone: string;
  author: string;
  createdAt: string;
}

/** When the window's current opening ends (epoch ms), or null when it is closed at `now`. */
export function windowOpenUntil(w: MaintenanceWindow, now: number): number | null {
  let end: number | null = null;
  for (const weekday of w.weekdays) {
    const start = latestSlot({ weekday, hour: w.hour, minute: w.minute, timeZone: w.timeZone }, now);
    const until = start + w.durationMinutes * 60_000;
    if (until > now && (end === null || until > end)) end = until;
  }
  return end;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** "Sun, Wed 02:00 for 120 min (Europe/Berlin)". */
export function describeWindow(
  w: Pick<MaintenanceWindow, 'weekdays' | 'hour' | 'minute' | 'durationMinutes' | 'timeZone'>,
): string {
  const hh = String(w.hour).padStart(2, '0');
  const mm = String(w.minute).padStart(2, '0');
  return `${w.weekdays.map((d) => DAYS[d]).join(', ')} ${hh}:${mm} for ${w.durationMinutes} min (${w.timeZone})`;
}
