/**
 * The first-hours table with the short windows' extra seeds (firstHours.ts SHORT_CUT_HOURS): runs cut after
 * their first hours count in those windows only, and never in the backfill's verdict.
 */
import { describe, expect, it } from 'vitest';
import type { WindowFigures } from '../../bench/day/firstHours.ts';
import { firstHoursTable, windowRows, type FirstHoursRun } from '../../bench/day/firstHoursTable.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

function window(hours: number, latenciesMin: number[]): WindowFigures {
  const sorted = latenciesMin.map((m) => m * MIN).sort((a, b) => a - b);
  const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1] ?? null;
  return {
    hours,
    changes: sorted.length,
    missed: 0,
    p95Ms: p95,
    p95ByKindMs: { removed: p95, restored: null, threat: null, score_drop: p95 },
    latenciesMs: sorted,
  };
}

/** One run: `latencies` of the 1 h window's changes; a whole run also has the 6 h window and its backfill. */
function run(poller: string, seed: number, latencies: number[], cutHours?: number): FirstHoursRun {
  const windows = [window(1, latencies), window(3, latencies)];
  if (cutHours === undefined) windows.push(window(6, latencies));
  return {
    domains: 200,
    seed,
    poller,
    windows,
    figures: { status429: 0, busiest60s: 57 },
    firstSync:
      poller === 'engine'
        ? { watchedMs: 7 * MIN, backfilledMs: cutHours === undefined ? 30 * HOUR : null }
        : null,
    ...(cutHours === undefined ? {} : { cutHours }),
  };
}

// Whole runs (seeds 0–1): the engine behind on both. Cut runs (seeds 2–4): ahead on each.
const runs: FirstHoursRun[] = [
  run('engine', 0, [1, 2, 7]),
  run('peer', 0, [1, 2, 6]),
  run('engine', 1, [1, 3, 7]),
  run('peer', 1, [1, 3, 6.5]),
  ...[2, 3, 4].flatMap((seed) => [run('engine', seed, [1, 2, 6], 3), run('peer', seed, [1, 2, 7], 3)]),
];

describe('first-hours table with cut runs', () => {
  it('takes the short windows over every seed and the longer ones over the whole runs alone', () => {
    const rows = windowRows(200, runs);
    const byHours = new Map(rows.map((r) => [r.hours, r]));
    expect(byHours.get(1)!.seeds).toBe(5);
    expect(byHours.get(3)!.seeds).toBe(5);
    expect(byHours.get(6)!.seeds).toBe(2);
    // 3 of 5 seeds have the engine ahead: met over 5 seeds, where the 2 whole runs alone say NOT met.
    expect(byHours.get(1)!.ratio!.median).toBeCloseTo(6 / 7);
    expect(byHours.get(1)!.met).toBe(true);
    expect(byHours.get(6)!.met).toBe(false);
  });

  it('pools every seed’s changes into one p95', () => {
    const rows = windowRows(200, runs);
    // 15 changes a poller: the p95 is the 15th, the largest — the engine's 7, the peer's 7.
    expect(rows[0]!.pooledRatio).toBeCloseTo(1);
    const lacking = runs.map((r) => ({ ...r, windows: r.windows.map(({ latenciesMs: _, ...w }) => w) }));
    expect(windowRows(200, lacking)[0]!.pooledRatio).toBeNull();
  });

  it('says how many seeds were cut and judges the backfill on the whole runs', () => {
    const table = firstHoursTable(200, runs, 8 * MIN, 34.5 * HOUR);
    expect(table).toMatch(
      /200 domains × 2 seeds \(the windows up to 3 h: 5 seeds, 3 of them cut after 3 h\)/,
    );
    // Both whole runs were in at 30 h, within the promise; the cut runs' unfinished backfill is not news.
    expect(table).toMatch(/in at 30\.0\/30\.0\/30\.0 h \(observed\) — promise 34\.5 h: met/);
    expect(table).not.toMatch(/without an end/);
  });
});
