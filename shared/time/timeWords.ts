/**
 * The app's one time format, for every surface (renderer, notifications, command line): a relative phrase
 * ("12 minutes ago") with the absolute local time and its zone ("Nov 26, 2026, 6:58 AM UTC") beside it —
 * on hover in the window, in parentheses where there is no hover (a notification, a terminal line).
 */

/** Where and how to write the absolute time: the locale and the IANA zone (defaults: the machine's). */
export interface TimeWordsOptions {
  locale?: string;
  timeZone?: string;
}

const absoluteFormats = new Map<string, Intl.DateTimeFormat>();
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

function absoluteFormat(options: TimeWordsOptions): Intl.DateTimeFormat {
  const key = `${options.locale ?? ''}|${options.timeZone ?? ''}`;
  let format = absoluteFormats.get(key);
  if (!format) {
    // dateStyle cannot be combined with timeZoneName, so the fields are spelled out.
    format = new Intl.DateTimeFormat(options.locale, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    });
    absoluteFormats.set(key, format);
  }
  return format;
}

function relativeFormat(locale: string | undefined): Intl.RelativeTimeFormat {
  const key = locale ?? '';
  let format = relativeFormats.get(key);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' });
    relativeFormats.set(key, format);
  }
  return format;
}

function instant(at: string | number): number {
  return typeof at === 'number' ? at : Date.parse(at);
}

/** "just now", "12 minutes ago", "in 3 hours", "2 days ago", "4 months ago"; an unreadable time as given. */
export function relativeTime(at: string | number, now: number, options: TimeWordsOptions = {}): string {
  const t = instant(at);
  if (!Number.isFinite(t)) return String(at);
  const seconds = Math.round((t - now) / 1000);
  const abs = Math.abs(seconds);
  const words = relativeFormat(options.locale);
  if (abs < 45) return 'just now';
  if (abs < 3600) return words.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return words.format(Math.round(seconds / 3600), 'hour');
  if (abs < 86_400 * 45) return words.format(Math.round(seconds / 86_400), 'day');
  if (abs < 86_400 * 365 * 2) return words.format(Math.round(seconds / (86_400 * 30)), 'month');
  return words.format(Math.round(seconds / (86_400 * 365)), 'year');
}

/** "Nov 26, 2026, 6:58 AM UTC": the local date and time with the zone; an unreadable time as given. */
export function absoluteTime(at: string | number, options: TimeWordsOptions = {}): string {
  const t = instant(at);
  return Number.isFinite(t) ? absoluteFormat(options).format(t) : String(at);
}

/** "12 minutes ago (Nov 26, 2026, 6:58 AM UTC)": both parts, for text that has no hover. */
export function timeInWords(at: string | number, now: number, options: TimeWordsOptions = {}): string {
  const t = instant(at);
  if (!Number.isFinite(t)) return String(at);
  return `${relativeTime(t, now, options)} (${absoluteTime(t, options)})`;
}

/** A span of time in words: "under a minute", "17 minutes", "5 hours", "3 days". */
export function durationWords(ms: number): string {
  if (!Number.isFinite(ms) || ms < 60_000) return 'under a minute';
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (ms < 3_600_000) return plural(Math.round(ms / 60_000), 'minute');
  if (ms < 2 * 86_400_000) return plural(Math.round(ms / 3_600_000), 'hour');
  return plural(Math.round(ms / 86_400_000), 'day');
}
