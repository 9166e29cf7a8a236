/** One N's figures as a side-by-side table: engine, naive poller, theoretical minimum. */
import type { DayResult, PollerResult } from '../day.bench.ts';
import { LIMIT_PER_MINUTE, type Minimums } from './theoreticalMinimum.ts';

const minutes = (ms: number | null) => (ms === null ? '—' : `${(ms / 60_000).toFixed(1)} min`);
const ratio = (a: number | null, b: number) => (a === null ? '—' : `${(a / b).toFixed(2)}×`);

/** The table's text. */
export function dayTable(day: DayResult, min: Minimums): string {
  const rows: [string, string, string, string][] = [];
  const poller = (p: PollerResult | null, pick: (p: PollerResult) => string) => (p ? pick(p) : '—');
  const both = (label: string, pick: (p: PollerResult) => string, minimum = '') =>
    rows.push([label, poller(day.engine, pick), poller(day.naive, pick), minimum]);
  both('requests', (p) => String(p.requests));
  both('429s received (after the first sync)', (p) => `${p.status429} (${p.status429Steady})`, '0');
  both(
    'budget used (share of 60/min)¹',
    (p) => `${((100 * p.perMinute) / LIMIT_PER_MINUTE).toFixed(1)} %`,
    '≤ 100 %',
  );
  both('change→alert p50', (p) => minutes(p.latency.p50Ms));
  both('change→alert p95', (p) => minutes(p.latency.p95Ms), minutes(min.p95Ms));
  both('p95 ÷ minimum', (p) => ratio(p.latency.p95Ms, min.p95Ms), '1.00×');
  both('change→alert max', (p) => minutes(p.latency.maxMs));
  both('changes missed', (p) => `${p.latency.missed} of ${p.latency.changes}`, '0');
  rows.push(['first sync: every domain watched', minutes(day.firstSync.watchedMs), '', minutes(min.watchMs)]);
  rows.push(['  ÷ minimum', ratio(day.firstSync.watchedMs, min.watchMs), '', '1.00×']);
  rows.push([
    'first sync: backfill complete',
    minutes(day.firstSync.backfilledMs),
    '',
    minutes(min.backfillMs),
  ]);
  rows.push(['  ÷ minimum', ratio(day.firstSync.backfilledMs, min.backfillMs), '', '1.00×']);
  const head = `N = ${day.domains} domains, ${day.hours} simulated h, ${day.changes} changes (wall ${(day.wallMs / 1000).toFixed(0)} s)`;
  const widths = [40, 16, 16, 16];
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('');
  return [
    head,
    line(['', 'engine', 'naive cron', 'minimum']),
    ...rows.map(line),
    '¹ the engine keeps 6 of the 60 a minute for the user’s edits: 90 % is all its sync may spend',
  ].join('\n');
}
