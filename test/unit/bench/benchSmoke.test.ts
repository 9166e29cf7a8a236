/**
 * Every part of `npm run bench` at its smoke scale (its smallest size, one seed, as `--smoke` runs it) must
 * still run to its table: a part that hangs, throws or stops printing fails here, in CI, rather than in a
 * contributor's terminal (issue 38: `--only=tick` printed its title and then nothing, forever, at 5,000
 * domains). The figures are not judged — a loaded CI machine makes them noise — only that each table comes
 * out with numbers in it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PARTS } from '../../bench/parts.ts';

/** What each part's smoke run must print (a part missing here fails the first test). */
const TABLES: Record<string, RegExp[]> = {
  planner: [/planner \(50 domains × 11 signals/, /job book built from the mirror and planned, median\s+\d/],
  tick: [/250 domains \(2751 jobs\): book, median\s+\d/, /first sync of 50 domains, every signal read once/],
  mirror: [/mirror \(50 domains/, /overview\(\) of all domains, median\s+\d/],
  'mirror-file': [/mirror on a file vs raw better-sqlite3/, /WAL written a health write, five a commit.*\d/],
  ingest: [/report parsing \(\d+ DMARC aggregate/, /TLS-RPT reports parsed per second\s+\d/],
  report: [/ingestion of the 2,286-record aggregate report/, /ingest, DNS never answers\s+\d/],
  day: [
    /N = 50 domains, 0\.25 simulated h × 1 seeds/,
    /p95 change→alert, min\s+\d/,
    /targets: engine p95/,
    /mirror at 50 domains: \d+ health writes\/s/,
  ],
  // Reads the days the day part kept (BENCH_DAY_KEEP below).
  grid: [/the grid from 3 days kept/, /\| 50 \(0\.25\) \| 1 \/ 1 \/ 1 \|/],
  'first-hours': [
    /first hours, N = 50 domains × 1 seeds \(the windows up to 1 h: 2 seeds, 1 of them cut after 1 h\)/,
    /^1 h\s+\d+\/\d+\/\d+\s+\d/m,
    /N=50, 1 h: engine ÷ peer \d\.\d\d× over 2 seeds, pooled \d/,
  ],
  livechecks: [
    /^50 \| spf_lookups \| [\d.]+ s \|/m,
    /^50 \| dnsbl_listings \| [\d.]+ s \| \d+ \| \d+ \/ 6000 \| — \| — \| 1 \| 0 \|/m,
    /^50 \| mta_sts_live \| [\d.]+ s \| \d+ \| \d+ \/ 6000 \| 50 \(\d+ \/ 10000\) \| 2 min \| 0 \| 0 \| \d+ MB/m,
    /^50 \| mx_starttls \| [\d.]+ s \| \d+ \| \d+ \/ 6000 \| 50 \(\d+ \/ 10000\) \| 2 min \| 0 \| 0 \|/m,
  ],
  sweep: [
    /escalation sweep \(210 open alerts/,
    /a look while nothing is due, median\s+[\d.]+ ms/,
    /escalations queued by it\s+70\.00 rows/,
  ],
  dns: [/^\s+50\s+1\.8 min/m, /DNS watch at 50 domains \(250 records\).*\n\s+\d/],
  week: [/^\s+0\.05\s+\d+\s+\d+/m, /target: the engine's RSS < 200 MiB/],
};

/** Long parts get long enough on a loaded two-core machine; a part that stops finishing still fails. */
const TIMEOUT_MS: Record<string, number> = {
  day: 240_000,
  'first-hours': 240_000,
  week: 240_000,
  dns: 120_000,
  livechecks: 120_000,
};

let keep = '';
beforeAll(() => {
  keep = mkdtempSync(join(tmpdir(), 'authwatch-bench-smoke-'));
});
afterAll(() => rmSync(keep, { recursive: true, force: true }));

let printed = '';
beforeEach(() => {
  printed = '';
  vi.stubEnv('BENCH_QUIET', '1');
  vi.stubEnv('BENCH_DAY_KEEP', keep);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed += String(chunk);
    return true;
  });
  return () => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  };
});

describe('npm run bench -- --smoke', () => {
  it('has a smoke check for every part', () => {
    expect(Object.keys(TABLES).sort()).toEqual(PARTS.map((p) => p.name).sort());
  });

  for (const part of PARTS)
    it(
      `${part.name} runs to its table`,
      async () => {
        await part.run('smoke');
        for (const table of TABLES[part.name] ?? [/never/]) expect(printed).toMatch(table);
        expect(printed).not.toMatch(/NaN|undefined/);
      },
      TIMEOUT_MS[part.name] ?? 60_000,
    );
});
