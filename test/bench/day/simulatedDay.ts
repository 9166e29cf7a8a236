/**
 * One simulated day at N domains for one poller (the engine, the 30-line round-robin peer or the paced cron
 * job): the reference service on a virtual clock, the poller with its own token, and the seeded stream of
 * changes applied as it goes.
 */
import { changeLatency, type LatencyFigures } from './changeLatency.ts';
import { changeStream, type Change } from './changeStream.ts';
import { RECORDS as RECORD_VALUES, startDayService } from './dayService.ts';
import { STEADY_ACCOUNT_ADDED_BEFORE_MS } from './dayPlan.ts';
import { startEngine } from './enginePoller.ts';
import type { BackfillSample } from './backfillPace.ts';
import { windowFigures, type WindowFigures } from './firstHours.ts';
import { firstSyncWatch, type FirstSyncFigures } from './firstSync.ts';
import { injectFetch, newTally, type RequestTally } from './injectFetch.ts';
import { EDIT_RESERVE, LIMIT_PER_MINUTE } from './lowerBound.ts';
import { startNaive } from './naivePoller.ts';
import { startRoundRobin } from './roundRobinPoller.ts';
import { busiestWindow } from './slidingWindow.ts';
import { VirtualTime } from './virtualTime.ts';
import type { Mirror } from '../../../main/core/mirror/types.ts';
import { BACKFILL_DAYS } from '../../../main/core/sync/signalFetcher.ts';

/** Options of one day. */
export interface DayOptions {
  domains: number;
  hours: number;
  seed: number;
  /** Virtual round trip of one request. */
  roundTripMs: number;
  /** Breaks and threats over the day. */
  events: number;
  /** Shortest break of a record (it must outlast the alert period to be seen by anyone). */
  minBreakMs: number;
  /** Changes start this long after the start (after the first sync) and stop this long before the end. */
  quietMs: number;
  tailMs: number;
  /** Windows from the first sync (hours) to measure apart (firstHours.ts); none for the steady-state day. */
  windowsHours?: readonly number[];
  /**
   * Only the changes of the day's first `cutHours` happen (the same seeded stream, cut there) and the run
   * ends a tail after them: the windows up to the cut at a fraction of the whole day's cost. Nothing a
   * poller does before an instant depends on changes after it, so those windows' figures are the whole
   * run's (firstHours.ts: the first hours' extra seeds).
   */
  cutHours?: number;
  /**
   * The engine's run goes on this long after `hours` while its backfill is not in, watching only the
   * backfill (backfillPace.ts); the figures above are taken at `hours`, before it.
   */
  backfillOverrunMs?: number;
}

/** Which poller a day runs: each runs in its own process against its own copy of the same seeded day. */
export type PollerKind = 'engine' | 'peer' | 'naive';
export const POLLER_KINDS: readonly PollerKind[] = ['engine', 'peer', 'naive'];

/** What one poller did over the day. */
export interface PollerFigures {
  requests: number;
  status429: number;
  /** 429s after the first sync (its backfill; every domain watched when the backfill outlasts the day). */
  status429Steady: number;
  /** Requests per minute over the day. */
  perMinute: number;
  /** The most requests sent within any 60 s of the day (sliding, not the service's fixed minute). */
  busiest60s: number;
  /** Requests and answer bytes per kind of request over the day (injectFetch.ts, requestKind). */
  byKind: RequestTally['byKind'];
  latency: LatencyFigures;
}

/** Figures of one poller's day. */
export interface DayFigures {
  domains: number;
  hours: number;
  changes: number;
  poller: PollerKind;
  figures: PollerFigures;
  /** The engine's first sync (null for the naive poller, which has no notion of one). */
  firstSync: FirstSyncFigures | null;
  /** The figures of each of o.windowsHours (firstHours.ts). */
  windows: WindowFigures[];
  /** o.cutHours, when the run was cut. */
  cutHours?: number;
  /** The engine's backfill every simulated quarter of an hour, to its end or the overrun's (empty for others). */
  backfillSamples: BackfillSample[];
  /** The poller's mirror after the day (for the read benchmarks); closed by the caller. */
  mirror: Mirror;
  wallMs: number;
}

const START = Date.parse('2026-06-15T00:00:00Z');
const PROGRESS_STEP_MS = 15 * 60_000;

/** The series the engine reads incrementally (start_date from what it holds), by their paths. */
const INCREMENTAL_PATHS = /\/(health\/history|security-score\/history|dns\/changes)$/;

/**
 * BENCH_DAY_WHOLE_SERIES=1: every incremental read asks for the whole backfill window instead of a
 * start_date from what the mirror holds, to measure what the windows save.
 */
function wholeSeries(url: URL): void {
  const end = url.searchParams.get('end_date');
  if (!end || !INCREMENTAL_PATHS.test(url.pathname)) return;
  url.searchParams.set(
    'start_date',
    new Date(Date.parse(end) - BACKFILL_DAYS * 86_400_000).toISOString().slice(0, 10),
  );
}

function figures(tally: RequestTally, latency: LatencyFigures, minutes: number, steadyFrom: number) {
  let steady = 0;
  for (const at of tally.refusedAt) if (at >= steadyFrom) steady += 1;
  return {
    requests: tally.requests,
    status429: tally.status429,
    status429Steady: steady,
    perMinute: tally.requests / minutes,
    busiest60s: busiestWindow(tally.sentAt),
    byKind: tally.byKind,
    latency,
  };
}

/**
 * Runs one simulated day for one poller. The service, its domains and the change stream come from the seed
 * alone, so the engine's day and the naive poller's day (in two processes, on two cores) are the same day.
 */
export async function simulateDay(
  o: DayOptions,
  poller: PollerKind,
  /** Told the simulated ms done and the day's, every simulated quarter of an hour (see progress.ts). */
  onProgress: (doneMs: number, totalMs: number) => void = () => undefined,
): Promise<DayFigures> {
  const wall = performance.now();
  const time = new VirtualTime(START);
  const svc = await startDayService(o.domains, time);
  const token = await svc.newToken();
  // Set-up calls age out of the service's rate-limit window before the day starts.
  await time.runUntil(Math.ceil((time.now() + 60_000) / 60_000) * 60_000);
  const start = time.now();
  const cutAt = o.cutHours === undefined ? Number.POSITIVE_INFINITY : start + o.cutHours * 3_600_000;
  const end = Math.min(start + o.hours * 3_600_000, cutAt + o.tailMs);

  const tally = newTally();
  const fetch = injectFetch(
    svc.app,
    time,
    tally,
    o.roundTripMs,
    process.env.BENCH_DAY_WHOLE_SERIES === '1' ? wholeSeries : undefined,
  );
  const watch = firstSyncWatch(time.now, start, o.domains);
  // The steady-state day's account was added yesterday (dayPlan.ts); a first-hours run's, at its first sync.
  const addedBeforeMs = o.windowsHours === undefined ? STEADY_ACCOUNT_ADDED_BEFORE_MS : 0;
  const running =
    poller === 'engine'
      ? startEngine(time, fetch, token, (e) => watch.observe(e), addedBeforeMs)
      : poller === 'peer'
        ? startRoundRobin(time, fetch, token, svc.domains, LIMIT_PER_MINUTE - EDIT_RESERVE)
        : startNaive(time, fetch, token, svc.domains);

  const changes = changeStream({
    seed: o.seed,
    domains: o.domains,
    start,
    durationMs: o.hours * 3_600_000,
    events: o.events,
    quietMs: o.quietMs,
    tailMs: o.tailMs,
    minBreakMs: o.minBreakMs,
  }).filter((c) => c.at < cutAt);
  const applyChange = async (change: Change) => {
    const domain = svc.domains[change.domainIndex]!;
    if (change.kind === 'threat') await svc.threatSends(domain, change.ip, `bench-${change.at}`);
    else
      await svc.setRecord(
        domain,
        change.record,
        change.kind === 'removed' ? null : RECORD_VALUES[change.record],
      );
  };
  const apply = async () => {
    for (const change of changes) {
      await time.sleepUntil(change.at);
      await applyChange(change);
    }
  };

  const backfillSamples: BackfillSample[] = [];
  const sample = () => {
    if (poller === 'engine')
      backfillSamples.push({ atMs: time.now() - start, done: watch.figures().backfillDone });
  };
  /** Runs `work` to `until` in progress steps, then lets a tick or request still waiting on the clock finish. */
  const runTo = async (until: number, work: Promise<unknown>) => {
    let finished = false;
    const all = work.finally(() => (finished = true));
    // In steps, to tell how far it got: the same wake-ups in the same order as one runUntil(until).
    for (let at = time.now(); at < until;) {
      at = Math.min(until, at + PROGRESS_STEP_MS);
      await time.runUntil(at);
      sample();
      onProgress(at - start, until - start);
    }
    await time.drain(() => finished, 5 * 60_000);
    await all;
  };
  await runTo(end, Promise.all([running.run(end), apply()]));

  const fqdnOf = (i: number) => svc.domains[i]!.fqdn;
  const firstSync = poller === 'engine' ? watch.figures() : null;
  // The engine's steady state starts when its backfill ends — or, when the backfill does not end within the
  // day (a large portfolio's takes days: firstSync.backfillDone says how far it got), when every domain is
  // watched; the others have no backfill, so after 5 minutes.
  const watchedAt = firstSync?.watchedMs == null ? end : start + firstSync.watchedMs;
  const steadyFrom = firstSync ? (firstSync.backfilledAt ?? watchedAt) : start + 5 * 60_000;
  const result: DayFigures = {
    domains: o.domains,
    hours: o.hours,
    ...(o.cutHours === undefined ? {} : { cutHours: o.cutHours }),
    changes: changes.length,
    poller,
    figures: figures(
      tally,
      changeLatency(running.mirror, running.accountId, changes, fqdnOf),
      o.hours * 60,
      steadyFrom,
    ),
    firstSync,
    windows: windowFigures(running.mirror, running.accountId, changes, fqdnOf, start, o.windowsHours ?? []),
    backfillSamples,
    mirror: running.mirror,
    wallMs: performance.now() - wall,
  };
  const overrun = poller === 'engine' ? (o.backfillOverrunMs ?? 0) : 0;
  if (overrun > 0 && firstSync?.backfilledMs === null) {
    // Only the backfill is watched from here: the ticks go on a quarter of an hour at a time, to the
    // overrun's end or until it is in.
    for (let at = end; at < end + overrun && watch.figures().backfilledAt === null;) {
      at += PROGRESS_STEP_MS;
      await runTo(at, running.run(at));
    }
    result.firstSync = watch.figures();
    result.wallMs = performance.now() - wall;
  }
  await svc.close();
  return result;
}
