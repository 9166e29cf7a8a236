import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gridRows, gridTable, readKeptDays, rowTargets } from '../../bench/day/gridSummary.ts';
import type { WorkerDay } from '../../bench/day/seedSummary.ts';

const S = 1_000;
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A kept day whose changes took `samples` (ms) each, the first half removals, the rest threats. */
function day(
  domains: number,
  poller: WorkerDay['poller'],
  seed: number,
  samples: number[],
  extra: Partial<WorkerDay> = {},
): WorkerDay {
  const sorted = [...samples].sort((a, b) => a - b);
  const half = Math.ceil(samples.length / 2);
  return {
    domains,
    hours: 24,
    changes: samples.length,
    seed: 1000 + seed,
    poller,
    figures: {
      requests: 77_000,
      status429: 0,
      status429Steady: 0,
      perMinute: 54,
      busiest60s: 55 + seed,
      byKind: {},
      latency: {
        changes: samples.length,
        missed: 0,
        p50Ms: sorted[Math.ceil(sorted.length / 2) - 1]!,
        p95Ms: sorted[Math.ceil(0.95 * sorted.length) - 1]!,
        maxMs: sorted.at(-1)!,
        byKind: {
          removed: { samples: samples.slice(0, half), missed: 0 },
          restored: { samples: [], missed: 0 },
          threat: { samples: samples.slice(half), missed: 0 },
          score_drop: { samples: [], missed: 0 },
        },
      },
    },
    firstSync: poller === 'engine' ? { watchedMs: 110 * S, backfilledMs: 400 * S } : null,
    wallMs: 1,
    cpuS: 100 + seed,
    rssMiB: 200,
    heapMiB: 100,
    ...extra,
  };
}

function keep(days: WorkerDay[], junk: Record<string, string> = {}): string {
  dir = mkdtempSync(join(tmpdir(), 'grid-'));
  for (const d of days)
    writeFileSync(join(dir, `${d.domains}-${d.hours}-${d.poller}-${d.seed - 1000}.json`), JSON.stringify(d));
  for (const [name, text] of Object.entries(junk)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Twenty changes whose p95 (nearest rank: the 19th smallest) is `p95` seconds. */
const withP95 = (p95: number) => [...Array.from({ length: 18 }, (_, i) => (i + 1) * S), p95 * S, p95 * S + S];

describe('the grid from kept days', () => {
  it('counts the seeds each poller finished and leaves out placeholders and other files', () => {
    const days = readKeptDays(
      keep(
        [
          day(50, 'engine', 0, withP95(90)),
          day(50, 'peer', 0, withP95(100)),
          day(50, 'peer', 1, withP95(100)),
        ],
        {
          '50-24-engine-1.json': '{"placeholder":true}\n',
          'mirror.json': '{"mirror":{}}',
          '50-24-engine-2.json.running': '',
        },
      ),
    );
    const [row] = gridRows(days);
    expect(row!.seeds).toEqual({ engine: 1, peer: 2, naive: 0 });
    expect(row!.status429.naive).toBeNull();
    expect(row!.status429.peer).toBe(0);
  });

  it('gives min / median / max across seeds and divides the engine by the peer of the same seed', () => {
    const rows = gridRows(
      readKeptDays(
        keep([
          day(50, 'engine', 0, withP95(90)),
          day(50, 'engine', 1, withP95(100)),
          day(50, 'engine', 2, withP95(120)),
          // The peer's slowest seed is the engine's fastest: pairing by seed, not by rank.
          day(50, 'peer', 0, withP95(120)),
          day(50, 'peer', 1, withP95(100)),
          day(50, 'peer', 2, withP95(80)),
        ]),
      ),
    );
    const row = rows[0]!;
    expect(row.p95Ms.engine).toEqual({ min: 90 * S, median: 100 * S, max: 120 * S });
    expect(row.engineOverPeer!.min).toBeCloseTo(0.75);
    expect(row.engineOverPeer!.median).toBeCloseTo(1);
    expect(row.engineOverPeer!.max).toBeCloseTo(1.5);
    // The bound at 50 domains: 0.95 × 100 / 54 min = 105.6 s.
    expect(row.engineOverBound!.median).toBeCloseTo(100 / 105.56, 2);
    expect(row.watchedOverBound!.median).toBeCloseTo(110 / 101, 2);
    // Per kind from each seed's own samples: the threats are the larger half.
    expect(row.p95ByKindMs.engine.threat!.median).toBe(101 * S);
    expect(row.p95ByKindMs.engine.restored).toBeNull();
    expect(row.busiest60s.engine).toBe(57);
  });

  it('says which size misses a target, and which was not run', () => {
    const rows = gridRows(
      readKeptDays(
        keep([
          day(50, 'engine', 0, withP95(100)),
          day(50, 'peer', 0, withP95(100)),
          // At 200 domains the bound is 7.04 min: the engine is under 1.2 × bound but over the peer.
          day(200, 'engine', 0, withP95(480)),
          day(200, 'peer', 0, withP95(420)),
          day(1000, 'peer', 0, withP95(2100)),
        ]),
      ),
    );
    expect(rows.map((r) => r.domains)).toEqual([50, 200, 1000]);
    expect(rowTargets(rows[0]!)).toEqual({ underPeer: true, underBound: true, watched: true });
    expect(rowTargets(rows[1]!)).toMatchObject({ underPeer: false, underBound: true });
    expect(rowTargets(rows[2]!)).toEqual({ underPeer: null, underBound: null, watched: null });
    const text = gridTable(rows);
    expect(text).toContain('N=200 (24 h): engine ≤ peer NOT met, ≤ 1.2 × bound met');
    expect(text).toContain('N=1000 (24 h): engine ≤ peer not run');
    expect(text).toMatch(/\| 1,000 \(24\) \| 0 \/ 1 \/ 0 \| — \| 35\.0 \/ 35\.0 \/ 35\.0 \|/);
  });
});
