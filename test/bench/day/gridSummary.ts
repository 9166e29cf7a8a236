/**
 * The grid from kept days (BENCH_DAY_KEEP, day/keptDays.ts): one row per N of every day kept there, each
 * figure min / median / max across the seeds that ran, with how many seeds each poller has — so a grid run
 * in pieces (in the background, over a session) is read in one table without running anything again. The
 * table is Markdown: it goes into the README as printed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALERT_KINDS, percentile, type AlertKind } from './changeLatency.ts';
import { lowerBound } from './lowerBound.ts';
import { spread, type Spread, type WorkerDay } from './seedSummary.ts';
import type { PollerKind } from './simulatedDay.ts';

/** A kept day's file name: `<N>-<hours>-<poller>-<seed>.json` (the worker's arguments). */
const KEPT_NAME = /^(\d+)-(\d+(?:\.\d+)?)-(engine|peer|naive)-(\d+)\.json$/;

/** Every finished day kept in `dir` (placeholders and files of other shapes are left out). */
export function readKeptDays(dir: string): WorkerDay[] {
  const days: WorkerDay[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!KEPT_NAME.test(name)) continue;
    const day = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Partial<WorkerDay>;
    // A day that never finished has no figures (an earlier runner wrote {"placeholder":true}).
    if (!day.figures?.latency || typeof day.domains !== 'number') continue;
    days.push(day as WorkerDay);
  }
  return days;
}

/** One N's row of the grid. */
export interface GridRow {
  domains: number;
  hours: number;
  seeds: Record<PollerKind, number>;
  /** p95 change→alert per poller, ms, across seeds. */
  p95Ms: Record<PollerKind, Spread | null>;
  boundP95Ms: number;
  /** Seed by seed (the same day for both): engine p95 ÷ peer p95. */
  engineOverPeer: Spread | null;
  engineOverBound: Spread | null;
  /** p95 of each alert kind per poller, ms, across seeds. */
  p95ByKindMs: Record<PollerKind, Record<AlertKind, Spread | null>>;
  /** The most requests in any sliding 60 s, the largest of any seed. */
  busiest60s: Record<PollerKind, number | null>;
  /** 429s summed over the seeds (null: no seed ran). */
  status429: Record<PollerKind, number | null>;
  /** Changes missed summed over the seeds (the changes the day scores, score drops apart). */
  missed: Record<PollerKind, number | null>;
  changes: Spread | null;
  /** First sync, every domain watched ÷ (⌈N/100⌉ + 2N)/L. */
  watchedOverBound: Spread | null;
  /** CPU of one day, s, all pollers together. */
  cpuS: Spread | null;
}

const POLLERS: readonly PollerKind[] = ['engine', 'peer', 'naive'];

function perPoller<T>(pick: (p: PollerKind) => T): Record<PollerKind, T> {
  return Object.fromEntries(POLLERS.map((p) => [p, pick(p)])) as Record<PollerKind, T>;
}

function sum(days: readonly WorkerDay[], pick: (d: WorkerDay) => number): number | null {
  return days.length ? days.reduce((s, d) => s + pick(d), 0) : null;
}

/** The grid's rows, smallest N first (one per N and length of day). */
export function gridRows(days: readonly WorkerDay[]): GridRow[] {
  const keys = [...new Set(days.map((d) => `${d.domains}:${d.hours}`))]
    .map((k) => k.split(':').map(Number) as [number, number])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return keys.map(([domains, hours]) => {
    const here = days.filter((d) => d.domains === domains && d.hours === hours);
    const of = (p: PollerKind) => here.filter((d) => d.poller === p).sort((a, b) => a.seed - b.seed);
    const bound = lowerBound(domains);
    const engine = of('engine');
    const peer = of('peer');
    const kindP95 = (d: WorkerDay, k: AlertKind) =>
      percentile(
        [...d.figures.latency.byKind[k].samples].sort((a, b) => a - b),
        95,
      );
    return {
      domains,
      hours,
      seeds: perPoller((p) => of(p).length),
      p95Ms: perPoller((p) => spread(of(p).map((d) => d.figures.latency.p95Ms))),
      boundP95Ms: bound.p95Ms,
      engineOverPeer: spread(
        engine.map((e) => {
          const a = e.figures.latency.p95Ms;
          const b = peer.find((x) => x.seed === e.seed)?.figures.latency.p95Ms;
          return a === null || b == null ? null : a / b;
        }),
      ),
      engineOverBound: spread(
        engine.map((e) => (e.figures.latency.p95Ms === null ? null : e.figures.latency.p95Ms / bound.p95Ms)),
      ),
      p95ByKindMs: perPoller(
        (p) =>
          Object.fromEntries(ALERT_KINDS.map((k) => [k, spread(of(p).map((d) => kindP95(d, k)))])) as Record<
            AlertKind,
            Spread | null
          >,
      ),
      busiest60s: perPoller((p) =>
        of(p).length ? Math.max(...of(p).map((d) => d.figures.busiest60s)) : null,
      ),
      status429: perPoller((p) => sum(of(p), (d) => d.figures.status429)),
      missed: perPoller((p) => sum(of(p), (d) => d.figures.latency.missed)),
      changes: spread(here.map((d) => d.changes)),
      watchedOverBound: spread(
        engine.map((e) => (e.firstSync?.watchedMs == null ? null : e.firstSync.watchedMs / bound.watchMs)),
      ),
      cpuS: spread(here.map((d) => d.cpuS ?? null)),
    };
  });
}

const minutes = (s: Spread | null) => fmt(s, (x) => (x / 60_000).toFixed(1));
const ratio = (s: Spread | null) => fmt(s, (x) => x.toFixed(2));
function fmt(s: Spread | null, f: (x: number) => string): string {
  return s === null ? '—' : `${f(s.min)} / ${f(s.median)} / ${f(s.max)}`;
}
const medianMin = (s: Spread | null) => (s === null ? '—' : (s.median / 60_000).toFixed(1));

/** Whether a row meets the targets (seed medians): null when the figures are not there. */
export function rowTargets(row: GridRow): {
  underPeer: boolean | null;
  underBound: boolean | null;
  watched: boolean | null;
} {
  const p95 = row.p95Ms.engine?.median ?? null;
  return {
    underPeer: row.engineOverPeer === null ? null : row.engineOverPeer.median <= 1,
    underBound: p95 === null ? null : p95 <= 1.2 * row.boundP95Ms,
    watched: row.watchedOverBound === null ? null : row.watchedOverBound.median <= 1.15,
  };
}

/** The grid as a Markdown table with its legend and the targets, row by row. */
export function gridTable(rows: readonly GridRow[]): string {
  const head = [
    'N (h)',
    'seeds engine / peer / cron',
    'engine p95, min',
    'peer p95',
    'cron p95',
    'bound p95*',
    'engine ÷ peer',
    'engine ÷ bound',
    'record removed (peer)',
    'record restored (peer)',
    'threat (peer)',
    'score drop (peer)',
    'busiest 60 s e / p / c',
    '429 e / p / c',
    'missed e / p / c',
    'watched ÷ bound',
    'CPU s a day',
  ];
  const kinds = (row: GridRow, k: AlertKind) =>
    `${minutes(row.p95ByKindMs.engine[k])} (${medianMin(row.p95ByKindMs.peer[k])})`;
  const three = (r: Record<PollerKind, number | null>) => POLLERS.map((p) => r[p] ?? '—').join(' / ');
  const lines = rows.map((row) =>
    [
      `${row.domains.toLocaleString('en-US')} (${row.hours})`,
      POLLERS.map((p) => row.seeds[p]).join(' / '),
      minutes(row.p95Ms.engine),
      minutes(row.p95Ms.peer),
      minutes(row.p95Ms.naive),
      (row.boundP95Ms / 60_000).toFixed(1),
      ratio(row.engineOverPeer),
      ratio(row.engineOverBound),
      kinds(row, 'removed'),
      kinds(row, 'restored'),
      kinds(row, 'threat'),
      kinds(row, 'score_drop'),
      three(row.busiest60s),
      three(row.status429),
      three(row.missed),
      ratio(row.watchedOverBound),
      fmt(row.cpuS, (x) => x.toFixed(0)),
    ].join(' | '),
  );
  const verdict = (ok: boolean | null) => (ok === null ? 'not run' : ok ? 'met' : 'NOT met');
  const targets = rows.map((row) => {
    const t = rowTargets(row);
    return `  N=${row.domains} (${row.hours} h): engine ≤ peer ${verdict(t.underPeer)}, ≤ 1.2 × bound ${verdict(t.underBound)}, watched ≤ 1.15 × bound ${verdict(t.watched)}`;
  });
  return [
    'min / median / max across seeds; per alert kind the engine’s p95 with the peer’s median in brackets; e / p / c: engine, peer, cron',
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...lines.map((l) => `| ${l} |`),
    '',
    '*bound p95* = 0.95 × 2N / (60 − 6) min (test/bench/day/lowerBound.ts); targets on the seed medians:',
    ...targets,
  ].join('\n');
}
