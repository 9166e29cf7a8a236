/**
 * The engine's backfill at one N against its promise (backfillPromiseMs): when it was in on each seed —
 * observed, or extrapolated from the pace of the run's last hours when the run ended first (backfillPace.ts)
 * — and met / NOT met: every seed's end within the promise.
 */
import { backfillEnd, type BackfillEnd, type BackfillSample } from './backfillPace.ts';
import { spread, type Spread } from './seedSummary.ts';

/** What the verdict reads of an engine run. */
export interface BackfillRun {
  firstSync: { backfilledMs: number | null; backfillDone?: number; backfillSignals?: number } | null;
  backfillSamples?: BackfillSample[];
}

/** One N's backfill across its seeds. */
export interface BackfillVerdict {
  promiseMs: number;
  observed: Spread | null;
  extrapolated: Spread | null;
  /** Seeds whose run gave no end (figures kept before the samples were, or a backfill that did not move). */
  unknown: number;
  perMinute: Spread | null;
  paceHours: number | null;
  met: boolean | null;
}

/** The verdict of one N's engine runs. */
export function backfillVerdict(runs: readonly BackfillRun[], promiseMs: number): BackfillVerdict {
  const ends = runs.map((r) =>
    r.firstSync
      ? backfillEnd(r.firstSync.backfilledMs, r.backfillSamples ?? [], r.firstSync.backfillSignals ?? 0)
      : null,
  );
  const known = ends.filter((e): e is BackfillEnd => e !== null);
  const guessed = known.filter((e) => e.extrapolated);
  return {
    promiseMs,
    observed: spread(known.filter((e) => !e.extrapolated).map((e) => e.ms)),
    extrapolated: spread(guessed.map((e) => e.ms)),
    unknown: ends.length - known.length,
    perMinute: spread(guessed.map((e) => e.perMinute)),
    paceHours: guessed.length ? Math.min(...guessed.map((e) => e.paceHours ?? 0)) : null,
    met: known.length === 0 ? null : known.length === ends.length && known.every((e) => e.ms <= promiseMs),
  };
}

const h = (ms: number) => (ms / 3_600_000).toFixed(1);
const three = (s: Spread, f: (x: number) => string) => `${f(s.min)}/${f(s.median)}/${f(s.max)}`;

/** The verdict as one line under the N's table. */
export function backfillLine(v: BackfillVerdict, seeds: number): string {
  const parts = [
    v.observed ? `in at ${three(v.observed, h)} h (observed)` : '',
    v.extrapolated
      ? `${three(v.extrapolated, h)} h **extrapolated** (the run ended first; pace ${three(v.perMinute!, (x) => x.toFixed(2))} signals/min over its last ${v.paceHours!.toFixed(1)} h)`
      : '',
    v.unknown ? `${v.unknown} of ${seeds} seeds without an end to go on` : '',
  ].filter(Boolean);
  return (
    `engine's backfill (every domain's score, DNS changes, histories), min/median/max across seeds: ${parts.join('; ')} ` +
    `— promise ${h(v.promiseMs)} h: ${v.met === null ? 'unknown' : v.met ? 'met' : 'NOT met'}`
  );
}
