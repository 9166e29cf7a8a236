/** One N's figures as a side-by-side table: engine, 30-line round-robin peer, paced cron, lower bound. */
import type { AlertKind } from './changeLatency.ts';
import { LIMIT_PER_MINUTE, type LowerBound } from './lowerBound.ts';
import type { PollerSummary, Spread } from './seedSummary.ts';

const min = (ms: number | null | undefined) => (ms == null ? '—' : (ms / 60_000).toFixed(1));
const span = (s: Spread | null, f: (x: number) => string) =>
  s === null ? '—' : `${f(s.min)} / ${f(s.median)} / ${f(s.max)}`;
const mins = (s: Spread | null) => span(s, (x) => min(x));
const times = (s: Spread | null, by: number) => span(s, (x) => (x / by).toFixed(2));

/** What one N's table shows. */
export interface DayView {
  domains: number;
  hours: number;
  seeds: number;
  changesPerSeed: Spread | null;
  bound: LowerBound;
  engine: PollerSummary;
  peer: PollerSummary;
  naive: PollerSummary;
  engineOverPeer: Spread | null;
  wallMs: number;
  /** CPU of every day of this N, s (service, harness and pollers together). */
  cpuS: number;
}

const KIND_LABEL: Record<AlertKind, string> = {
  removed: 'p95 record removed',
  restored: 'p95 record restored',
  threat: 'p95 threat appeared',
  score_drop: 'p95 score drop (beside)',
};

/**
 * When the backfill ended, or — for the seeds where it did not within the day (a large portfolio's takes
 * days) — how far it got, never an empty cell.
 */
function backfilled(p: PollerSummary): string {
  const open = p.backfillUnfinished;
  if (open === null) return mins(p.backfilledMs);
  const count = (x: number) => x.toFixed(0);
  const got = open.done === null ? '?' : span(open.done, count);
  const ended = p.backfilledMs === null ? '' : `; ${mins(p.backfilledMs)} min where it did`;
  return `not in the day (${open.seeds} seeds): ${got} of ${open.signals} in${ended}`;
}

/** The table's text. Cells with three figures are min / median / max across the seeds. */
export function dayTable(v: DayView): string {
  const rows: string[][] = [];
  const all = (label: string, pick: (p: PollerSummary) => string, bound = '') =>
    rows.push([label, pick(v.engine), pick(v.peer), pick(v.naive), bound]);
  all('p95 change→alert, min', (p) => mins(p.p95Ms), min(v.bound.p95Ms));
  all('p95 ÷ lower bound', (p) => times(p.p95Ms, v.bound.p95Ms), '1.00');
  rows.push(['engine p95 ÷ peer p95 (same seed)', times(v.engineOverPeer, 1), '1.00', '', '']);
  all('p50 change→alert, min', (p) => mins(p.p50Ms));
  for (const kind of ['removed', 'restored', 'threat', 'score_drop'] as const)
    all(`${KIND_LABEL[kind]}, min`, (p) => mins(p.p95ByKindMs[kind]));
  all('changes missed (all seeds)', (p) => `${p.missed} of ${p.changes}`, '0');
  all('score drops missed (all seeds)', (p) => String(p.missedByKind.score_drop));
  all('429s (all seeds)', (p) => String(p.status429), '0');
  all(
    'busiest sliding 60 s (max)',
    (p) => (p.busiest60s === null ? 'not run' : String(p.busiest60s)),
    `≤ ${LIMIT_PER_MINUTE}`,
  );
  all('budget used, % of 60/min', (p) => span(p.perMinute, (x) => ((100 * x) / LIMIT_PER_MINUTE).toFixed(0)));
  rows.push([
    'first sync: every domain watched, min',
    mins(v.engine.watchedMs),
    '',
    '',
    min(v.bound.watchMs),
  ]);
  rows.push(['  ÷ (⌈N/100⌉ + 2N)/L', times(v.engine.watchedMs, v.bound.watchMs), '', '', '1.00']);
  rows.push(['first sync: score + history in, min', backfilled(v.engine), '', '', '']);
  rows.push(['process RSS at the end, MiB¹', span(v.engine.rssMiB, (x) => x.toFixed(0)), '', '', '']);
  const head =
    `N = ${v.domains} domains, ${v.hours} simulated h × ${v.seeds} seeds, ` +
    `${span(v.changesPerSeed, (x) => x.toFixed(0))} changes per seed (wall ${(v.wallMs / 1000).toFixed(0)} s, CPU ${v.cpuS.toFixed(0)} s, summed over its days)`;
  const widths = [40, 22, 22, 22, 12];
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('');
  return [
    head,
    line(['min / median / max across seeds', 'engine', '30-line peer', 'paced cron', 'bound']),
    ...rows.map(line),
  ].join('\n');
}
