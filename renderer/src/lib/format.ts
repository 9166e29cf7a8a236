/** Formatting in the user's locale: numbers with separators, dates with the time zone, ages in words. */
const numberFormat = new Intl.NumberFormat(undefined);
// dateStyle cannot be combined with timeZoneName, so the fields are spelled out.
const exactFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'long' });

/** 12,345 (— for none). */
export function num(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : numberFormat.format(value);
}

/** 98.5 % (— for none). */
export function pct(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : `${value.toFixed(digits)} %`;
}

/** "Nov 24, 2026, 2:02 PM UTC" — the exact time, for tooltips and tables. */
export function exact(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : exactFormat.format(t);
}

/** A calendar day of the interface (YYYY-MM-DD, UTC) as "Nov 24, 2026". */
export function day(date: string): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) ? date : dayFormat.format(t);
}

/** "3 min ago", "in 2 h", "just now" — how old a piece of data is. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const seconds = Math.round((t - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 86_400 * 45) return relative.format(Math.round(seconds / 86_400), 'day');
  return relative.format(Math.round(seconds / (86_400 * 30)), 'month');
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

/** The protocols in the interface's order, with their display names. */
export const PROTOCOLS = [
  { key: 'dmarc', label: 'DMARC', short: 'DMARC' },
  { key: 'spf', label: 'SPF', short: 'SPF' },
  { key: 'mta_sts', label: 'MTA-STS', short: 'STS' },
  { key: 'tls_rpt', label: 'TLS-RPT', short: 'TLS' },
  { key: 'bimi', label: 'BIMI', short: 'BIMI' },
] as const;

/** Display name of a protocol or record type. */
export function protocolLabel(key: string): string {
  return PROTOCOLS.find((p) => p.key === key)?.label ?? key.toUpperCase();
}
