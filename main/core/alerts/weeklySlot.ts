/**
 * A weekly moment in a person's own time zone ("Mondays at 08:00, Europe/Berlin") and the instants it falls on.
 * Computed from the clock passed in (never the machine's), so a missed slot can be found after the machine
 * slept and a test can walk a fake clock across a daylight-saving change.
 */
export interface WeeklySlot {
  /** 0 = Sunday … 6 = Saturday (cron's numbering). */
  weekday: number;
  hour: number;
  minute: number;
  /** IANA zone, e.g. Europe/Berlin. */
  timeZone: string;
}

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const DAY_MS = 86_400_000;

/** "mon 08:00", "Monday 8:30" → weekday, hour, minute; null when it is not a day and a time. */
export function parseWeeklyTime(text: string): Omit<WeeklySlot, 'timeZone'> | null {
  const m = /^\s*([a-z]+)\s+(\d{1,2}):(\d{2})\s*$/i.exec(text);
  if (!m) return null;
  const word = m[1]!.toLowerCase();
  const weekday = WEEKDAYS.findIndex((d, i) => word === d || word === DAY_NAMES[i]!.toLowerCase());
  const hour = Number(m[2]);
  const minute = Number(m[3]);
  if (weekday < 0 || hour > 23 || minute > 59) return null;
  return { weekday, hour, minute };
}

/** True for a zone name Intl knows (IANA names, UTC). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return zone.trim() !== '';
  } catch {
    return false;
  }
}

/** "Mondays at 08:00 (Europe/Berlin)". */
export function describeSlot(s: WeeklySlot): string {
  const hh = String(s.hour).padStart(2, '0');
  const mm = String(s.minute).padStart(2, '0');
  return `${DAY_NAMES[s.weekday]}s at ${hh}:${mm} (${s.timeZone})`;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function localParts(at: number, timeZone: string): LocalParts {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(at)) p[part.type] = part.value;
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour),
    minute: Number(p.minute),
    weekday: WEEKDAYS.indexOf(p.weekday!.toLowerCase() as (typeof WEEKDAYS)[number]),
  };
}

/** The zone's offset from UTC at `at`, in ms (local wall clock minus UTC). */
function offsetAt(at: number, timeZone: string): number {
  const p = localParts(at, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return wall - Math.floor(at / 60_000) * 60_000;
}

/**
 * The instant a local wall-clock time happens in the zone. A time that happens twice (clocks turned back) is
 * its first occurrence; a time that never happens (clocks turned forward) is moved forward by the jump
 * (02:30 on the night clocks go from 02:00 to 03:00 is 03:30), as cron daemons do.
 */
export function instantOf(y: number, mo: number, d: number, h: number, mi: number, timeZone: string): number {
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  // The offsets in force around that day: either side of a change, whichever way it goes.
  const offsets = [
    offsetAt(wall - DAY_MS, timeZone),
    offsetAt(wall, timeZone),
    offsetAt(wall + DAY_MS, timeZone),
  ];
  const readsBack = (t: number) => {
    const p = localParts(t, timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) === wall;
  };
  const exact = offsets.map((o) => wall - o).filter(readsBack);
  if (exact.length > 0) return Math.min(...exact);
  return wall - Math.min(...offsets);
}

/** The newest instant of the slot at or before `now` (epoch ms). */
export function latestSlot(s: WeeklySlot, now: number): number {
  const p = localParts(now, s.timeZone);
  // This week's slot may still be ahead — or, when clocks were turned back, already passed although the wall
  // clock reads earlier: the instant decides, not the local time of day.
  for (let back = (p.weekday - s.weekday + 7) % 7; ; back += 7) {
    // Date.UTC normalises "day 0" and negative days into the right month.
    const date = new Date(Date.UTC(p.year, p.month - 1, p.day - back));
    const at = instantOf(
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      date.getUTCDate(),
      s.hour,
      s.minute,
      s.timeZone,
    );
    if (at <= now) return at;
  }
}

/** The first instant of the slot after `now`. */
export function nextSlot(s: WeeklySlot, now: number): number {
  let at = latestSlot(s, now + 8 * DAY_MS);
  for (;;) {
    const before = latestSlot(s, at - 1);
    if (before <= now) return at;
    at = before;
  }
}
