/** Formatting in the user's locale: numbers with separators, dates with the time zone, ages in words. */
import { absoluteTime, relativeTime } from '../../../shared/time/timeWords.ts';
import {
  PROTOCOL_LABELS,
  PROTOCOLS as PROTOCOL_KEYS,
  type Protocol,
} from '../../../shared/email-auth/protocols.ts';

const numberFormat = new Intl.NumberFormat(undefined);
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** 12,345 (— for none). */
export function num(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : numberFormat.format(value);
}

/**
 * The service's prose with its numbers written for people: "98.9% of 434257 messages" → "98.9% of 434,257
 * messages". Only whole numbers of 1,000 or more standing alone are touched — not years, decimals, dates,
 * times, addresses or ids.
 */
export function proseNumbers(text: string): string {
  return text.replace(/(?<![\d.,:/#\-A-Za-z_])\d{4,}(?![\d.,:/\-A-Za-z_])/g, (digits) => {
    const n = Number(digits);
    return n >= 1900 && n <= 2099 ? digits : num(n);
  });
}

/** "1 domain", "1,204 messages": the number with separators and the word in the right number. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${num(n)} ${n === 1 ? one : many}`;
}

/** 98.5 % (— for none). */
export function pct(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : `${value.toFixed(digits)} %`;
}

/** "Nov 24, 2026, 2:02 PM UTC" — the exact local time with its zone (shared/time, the one format). */
export function exact(iso: string | null | undefined): string {
  if (!iso) return 'never';
  return absoluteTime(iso);
}

/** A calendar day of the interface (YYYY-MM-DD, UTC) as "Nov 24, 2026". */
export function day(date: string): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) ? date : dayFormat.format(t);
}

/** The time of day on this computer's clock, as "Saved at …" says it ("9:30:15 AM"). */
export function timeOfDay(ms: number): string {
  return new Date(ms).toLocaleTimeString();
}

/** "3 minutes ago", "in 2 hours", "just now" — how old a piece of data is (shared/time, the one format). */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  return iso ? relativeTime(iso, now) : 'never';
}

/** A duration in words: "17 min", "2.5 h", "3 days". */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400 * 2) return `${(seconds / 3600).toFixed(seconds < 36_000 ? 1 : 0)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

/** YYYY-MM-DD of a time in UTC (the interface's windows are UTC dates). */
export function isoDay(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

/** Short names where a row has little room (a protocol chip). */
const SHORT: Record<Protocol, string> = {
  dmarc: 'DMARC',
  spf: 'SPF',
  mta_sts: 'STS',
  tls_rpt: 'TLS',
  bimi: 'BIMI',
};

/** The protocols in the interface's order (shared/email-auth's list), with their display names. */
export const PROTOCOLS = PROTOCOL_KEYS.map((key) => ({
  key,
  label: PROTOCOL_LABELS[key],
  short: SHORT[key],
}));

/** Display name of a protocol or record type. */
export function protocolLabel(key: string): string {
  return PROTOCOLS.find((p) => p.key === key)?.label ?? key.toUpperCase();
}
