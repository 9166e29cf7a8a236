/** Quiet hours: notifications are held from startHour (inclusive) to endHour (exclusive), local time. */
export interface QuietHours {
  startHour: number;
  endHour: number;
}

/** The hour (0–23) of `at` in an IANA time zone, or in the machine's zone when null. */
export function localHour(at: number, timeZone: string | null): number {
  const hour = new Intl.DateTimeFormat('en-GB', {
    hour: 'numeric',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  }).format(at);
  return Number(hour);
}

/** True when `at` falls in the quiet hours (a window may wrap midnight, e.g. 22 → 7; start = end means none). */
export function inQuietHours(at: number, quiet: QuietHours | null, timeZone: string | null): boolean {
  if (!quiet || quiet.startHour === quiet.endHour) return false;
  const hour = localHour(at, timeZone);
  return quiet.startHour < quiet.endHour
    ? hour >= quiet.startHour && hour < quiet.endHour
    : hour >= quiet.startHour || hour < quiet.endHour;
}
