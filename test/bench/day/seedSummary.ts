/**
 * One N's days across seeds, for each poller: the per-seed figures and their min / median / max, so a p95
 * is never one run's largest sample. What the bench prints and writes to bench-results.json.
 */
import { ALERT_KINDS, percentile, type AlertKind } from './changeLatency.ts';
import type { PollerKind } from './simulatedDay.ts';

/** The JSON a day worker prints: one poller's day at one seed. */
export interface WorkerDay {
  domains: number;
  hours: number;
  changes: number;
  seed: number;
  poller: PollerKind;
  figures: {
    requests: number;
    status429: number;
    status429Steady: number;
    perMinute: number;
    busiest60s: number;
    byKind: Record<string, { requests: number; bytes: number }>;
    latency: {
      changes: number;
      missed: number;
      p50Ms: number | null;
      p95Ms: number | null;
      maxMs: number | null;
      byKind: Record<AlertKind, { samples: number[]; missed: number }>;
    };
  };
  firstSync: {
    watchedMs: number | null;
    backfilledMs: number | null;
    /** Signals in by the day's end, of backfillSignals (absent in figures kept before they were counted). */
    backfillDone?: number;
    backfillSignals?: number;
  } | null;
  wallMs: number;
  /** The worker process's CPU, s (absent in figures kept before it was counted). */
  cpuS?: number;
  rssMiB: number;
  heapMiB: number;
}

/** Smallest, median and largest of some figures (nulls left out); null when there are none. */
export interface Spread {
  min: number;
  median: number;
  max: number;
}

/** min / median / max of `values`, ignoring nulls. */
export function spread(values: readonly (number | null)[]): Spread | null {
  const v = values.filter((x): x is number => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = v.length / 2;
  const median = v.length % 2 ? v[Math.floor(mid)]! : (v[mid - 1]! + v[mid]!) / 2;
  return { min: v[0]!, median, max: v[v.length - 1]! };
}

/** One poller's figures at one N across the seeds. */
export interface PollerSummary {
  p95Ms: Spread | null;
  p50Ms: Spread | null;
  /** p95 of each alert kind, per seed → spread. */
  p95ByKindMs: Record<AlertKind, Spread | null>;
  /** Every seed's samples of a kind together. */
  pooledP95ByKindMs: Record<AlertKind, number | null>;
  missed: number;
  missedByKind: Record<AlertKind, number>;
  changes: number;
  status429: number;
  /** The most requests in any 60 s of any seed's day; null when the poller did not run (no day). */
  busiest60s: number | null;
  perMinute: Spread | null;
  watchedMs: Spread | null;
  backfilledMs: Spread | null;
  /**
   * The seeds whose backfill did not end within the day, and how many of the backfill's signals each had in
   * (of `signals`); null when every seed's ended (or none was counted).
   */
  backfillUnfinished: { seeds: number; done: Spread | null; signals: number } | null;
  rssMiB: Spread | null;
  heapMiB: Spread | null;
  wallMs: number;
}

/** Summarizes one poller's seeds at one N. */
export function summarize(days: readonly WorkerDay[]): PollerSummary {
  const kinds = (pick: (kind: AlertKind) => number | null | Spread) =>
    Object.fromEntries(ALERT_KINDS.map((k) => [k, pick(k)]));
  const sortedOf = (k: AlertKind, d: WorkerDay) =>
    [...d.figures.latency.byKind[k].samples].sort((a, b) => a - b);
  return {
    p95Ms: spread(days.map((d) => d.figures.latency.p95Ms)),
    p50Ms: spread(days.map((d) => d.figures.latency.p50Ms)),
    p95ByKindMs: kinds((k) => spread(days.map((d) => percentile(sortedOf(k, d), 95)))) as Record<
      AlertKind,
      Spread | null
    >,
    pooledP95ByKindMs: kinds((k) =>
      percentile(
        days.flatMap((d) => d.figures.latency.byKind[k].samples).sort((a, b) => a - b),
        95,
      ),
    ) as Record<AlertKind, number | null>,
    missed: days.reduce((s, d) => s + d.figures.latency.missed, 0),
    missedByKind: kinds((k) => days.reduce((s, d) => s + d.figures.latency.byKind[k].missed, 0)) as Record<
      AlertKind,
      number
    >,
    changes: days.reduce((s, d) => s + d.changes, 0),
    status429: days.reduce((s, d) => s + d.figures.status429, 0),
    busiest60s: days.length === 0 ? null : Math.max(...days.map((d) => d.figures.busiest60s)),
    perMinute: spread(days.map((d) => d.figures.perMinute)),
    watchedMs: spread(days.map((d) => d.firstSync?.watchedMs ?? null)),
    backfilledMs: spread(days.map((d) => d.firstSync?.backfilledMs ?? null)),
    backfillUnfinished: unfinished(days),
    rssMiB: spread(days.map((d) => d.rssMiB)),
    heapMiB: spread(days.map((d) => d.heapMiB)),
    wallMs: days.reduce((s, d) => s + d.wallMs, 0),
  };
}

function unfinished(days: readonly WorkerDay[]): PollerSummary['backfillUnfinished'] {
  const open = days.filter((d) => d.firstSync && d.firstSync.backfilledMs === null);
  if (open.length === 0) return null;
  return {
    seeds: open.length,
    done: spread(open.map((d) => d.firstSync?.backfillDone ?? null)),
    signals: Math.max(0, ...open.map((d) => d.firstSync?.backfillSignals ?? 0)),
  };
}

/** The engine's p95 over the peer's, seed by seed (the same day for both), as a spread. */
export function ratioToPeer(engine: readonly WorkerDay[], peer: readonly WorkerDay[]): Spread | null {
  return spread(
    engine.map((e) => {
      const p = peer.find((x) => x.seed === e.seed);
      const a = e.figures.latency.p95Ms;
      const b = p?.figures.latency.p95Ms;
      return a === null || b === null || b === undefined ? null : a / b;
    }),
  );
}
