/**
 * The first-hours table (firstHours.ts): per N, one row per window from the first sync, the engine's and the
 * peer's p95 change→alert, min / median / max across seeds, the bound, per alert kind, and whether the
 * engine met the target (its p95 ≤ the peer's on the seeds' median) — the steady-state grid is the 24 h row.
 */
import type { BackfillSample } from './backfillPace.ts';
import { backfillLine, backfillVerdict } from './backfillVerdict.ts';
import { ALERT_KINDS, percentile, type AlertKind } from './changeLatency.ts';
import { windowBoundMs, type WindowFigures } from './firstHours.ts';
import { spread, type Spread } from './seedSummary.ts';

/** What a first-hours worker prints (the fields the table reads). */
export interface FirstHoursRun {
  domains: number;
  seed: number;
  poller: string;
  windows: WindowFigures[];
  figures: { status429: number; busiest60s: number };
  firstSync: {
    watchedMs: number | null;
    backfilledMs: number | null;
    backfillDone?: number;
    backfillSignals?: number;
  } | null;
  /** The engine's backfill every simulated quarter of an hour (absent in figures kept before it was). */
  backfillSamples?: BackfillSample[];
  /** Simulated hours the run covered (its changes' window and tail; the engine's backfill overrun not in). */
  hours?: number;
  /** Set when the run was cut after its first hours (their windows only: firstHours.ts SHORT_CUT_HOURS). */
  cutHours?: number;
  cpuS?: number;
  wallMs?: number;
  heapMiB?: number;
  peakHeapMiB?: number;
  rssMiB?: number;
}

/** One window of one N across the seeds. */
export interface WindowRow {
  hours: number;
  changes: Spread | null;
  engine: Spread | null;
  peer: Spread | null;
  boundMs: number;
  ratio: Spread | null;
  /**
   * The p95 of every seed's changes pooled, engine ÷ peer: steadier than a seed's p95 when a window holds a
   * few changes a seed (null when a run lacks its latencies, as runs kept before they were do).
   */
  pooledRatio: number | null;
  /** Seeds the window was taken over (engine and peer both ran). */
  seeds: number;
  /** Median across seeds of each kind's p95: engine, peer. */
  byKind: Record<AlertKind, { engine: Spread | null; peer: Spread | null }>;
  met: boolean | null;
}

const windowOf = (run: FirstHoursRun, hours: number) => run.windows.find((w) => w.hours === hours);

/** The rows of one N from its runs (engine and peer, every seed). */
export function windowRows(domains: number, runs: readonly FirstHoursRun[]): WindowRow[] {
  const of = (poller: string) => runs.filter((r) => r.poller === poller && r.domains === domains);
  const engine = of('engine');
  const peer = of('peer');
  const hours = [...new Set(runs.flatMap((r) => r.windows.map((w) => w.hours)))].sort((a, b) => a - b);
  return hours.map((h) => {
    const paired = engine.flatMap((e) => {
      const p = peer.find((x) => x.seed === e.seed && windowOf(x, h));
      const a = windowOf(e, h);
      const b = p && windowOf(p, h);
      return a && b ? [{ engine: a, peer: b }] : [];
    });
    const ratio = spread(
      paired.map(({ engine: a, peer: b }) =>
        a.p95Ms === null || b.p95Ms === null ? null : a.p95Ms / b.p95Ms,
      ),
    );
    const pooled = (side: 'engine' | 'peer') => {
      const all = paired.map((pair) => pair[side].latenciesMs);
      if (all.some((l) => l === undefined)) return null;
      return percentile(
        all.flatMap((l) => l!).sort((a, b) => a - b),
        95,
      );
    };
    const pe = pooled('engine');
    const pp = pooled('peer');
    const p95 = (list: readonly FirstHoursRun[], k?: AlertKind) =>
      spread(list.map((r) => (k ? windowOf(r, h)?.p95ByKindMs[k] : windowOf(r, h)?.p95Ms) ?? null));
    return {
      hours: h,
      changes: spread(engine.map((r) => windowOf(r, h)?.changes ?? null)),
      engine: p95(engine),
      peer: p95(peer),
      boundMs: windowBoundMs(domains),
      ratio,
      pooledRatio: pe === null || pp === null || pp === 0 ? null : pe / pp,
      seeds: paired.length,
      byKind: Object.fromEntries(
        ALERT_KINDS.map((k) => [k, { engine: p95(engine, k), peer: p95(peer, k) }]),
      ) as WindowRow['byKind'],
      met: ratio === null ? null : ratio.median <= 1,
    };
  });
}

const min = (ms: number) => (ms / 60_000).toFixed(1);
const three = (s: Spread | null, f: (x: number) => string) =>
  s === null ? '—' : `${f(s.min)}/${f(s.median)}/${f(s.max)}`;

/** The table of one N (text), with the engine's first-sync figures under it. */
export function firstHoursTable(
  domains: number,
  runs: readonly FirstHoursRun[],
  firstChangeMs: number,
  backfillPromiseMs: number,
): string {
  const rows = windowRows(domains, runs);
  // The backfill is watched by the whole runs alone: a cut run stops after its short windows.
  const engine = runs.filter(
    (r) => r.poller === 'engine' && r.domains === domains && r.cutHours === undefined,
  );
  const whole = new Set(engine.map((r) => r.seed)).size;
  const ofN = runs.filter((r) => r.domains === domains);
  const wholeSeeds = new Set(ofN.filter((r) => r.cutHours === undefined).map((r) => r.seed));
  // Seeds only a cut run measured (a seed with a whole run counts once, whole).
  const cutSeeds = new Set(
    ofN.filter((r) => r.cutHours !== undefined && !wholeSeeds.has(r.seed)).map((r) => r.seed),
  );
  const cutHours = ofN.find((r) => r.cutHours !== undefined)?.cutHours;
  const cpu = runs.filter((r) => r.domains === domains).reduce((s, r) => s + (r.cpuS ?? 0), 0);
  const head =
    `first hours, N = ${domains.toLocaleString('en')} domains × ${whole} seeds` +
    (cutSeeds.size
      ? ` (the windows up to ${cutHours} h: ${wholeSeeds.size + cutSeeds.size} seeds, ${cutSeeds.size} of them cut after ${cutHours} h)`
      : '') +
    `: windows from the account's first sync; ` +
    `changes from ${min(firstChangeMs)} min (every domain read once at 54/min); CPU ${cpu.toFixed(0)} s`;
  const cols = [
    'window',
    'changes',
    'engine p95',
    'peer p95',
    'bound',
    'seeds',
    'engine ÷ peer',
    'pooled ÷',
    'removed',
    'restored',
    'threat',
    'score drop',
    'target',
  ];
  const kind = (r: WindowRow, k: AlertKind) => {
    const e = r.byKind[k].engine;
    const p = r.byKind[k].peer;
    return e === null && p === null ? '—' : `${e ? min(e.median) : '—'} (${p ? min(p.median) : '—'})`;
  };
  const lines = rows.map((r) => [
    `${r.hours} h`,
    three(r.changes, (x) => x.toFixed(0)),
    three(r.engine, min),
    three(r.peer, min),
    min(r.boundMs),
    String(r.seeds),
    three(r.ratio, (x) => x.toFixed(2)),
    r.pooledRatio === null ? '—' : r.pooledRatio.toFixed(2),
    ...(['removed', 'restored', 'threat', 'score_drop'] as const).map((k) => kind(r, k)),
    r.met === null ? 'no change yet' : r.met ? 'met' : 'NOT met',
  ]);
  const widths = cols.map((c, i) => Math.max(c.length, ...lines.map((l) => l[i]!.length)) + 2);
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('');
  const limits =
    `429s engine ${engine.reduce((s, r) => s + r.figures.status429, 0)}, ` +
    `busiest sliding 60 s engine ${Math.max(0, ...engine.map((r) => r.figures.busiest60s))}`;
  return [
    head,
    "min/median/max across seeds, minutes; pooled ÷: the p95 of every seed's changes together, engine ÷ peer; per kind the engine's median p95 (the peer's); target: engine ≤ peer (seed median)",
    line(cols),
    ...lines.map(line),
    backfillLine(backfillVerdict(engine, backfillPromiseMs), engine.length),
    limits,
    ...runs.filter((r) => r.domains === domains).map(runCost),
  ].join('\n');
}

/** One run's cost: CPU, wall, heap (the worker's process holds the service and its domains too). */
function runCost(r: FirstHoursRun): string {
  const mib = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(0));
  const last = r.backfillSamples?.[r.backfillSamples.length - 1];
  const simulatedH = Math.max(r.hours ?? 0, (last?.atMs ?? 0) / 3_600_000);
  return (
    `  run ${r.poller}, seed ${r.seed}${r.cutHours === undefined ? '' : ` (cut after ${r.cutHours} h)`}: ${simulatedH.toFixed(1)} simulated h, CPU ${r.cpuS?.toFixed(0) ?? '—'} s, ` +
    `wall ${r.wallMs === undefined ? '—' : (r.wallMs / 1000).toFixed(0)} s, heap ${mib(r.heapMiB)} MiB at the end ` +
    `(peak ${mib(r.peakHeapMiB)}), RSS ${mib(r.rssMiB)} MiB`
  );
}
