/**
 * One simulated day at N domains: the reference service on a virtual clock, the engine and the naive
 * poller each with its own token, and the seeded stream of changes applied to the service as it goes.
 */
import { changeLatency, type LatencyFigures } from './changeLatency.ts';
import { changeStream, type Change } from './changeStream.ts';
import { RECORDS as RECORD_VALUES, startDayService } from './dayService.ts';
import { startEngine, type EngineUnderTest } from './enginePoller.ts';
import { firstSyncWatch, type FirstSyncFigures } from './firstSync.ts';
import { injectFetch, newTally, type RequestTally } from './injectFetch.ts';
import { startNaive } from './naivePoller.ts';
import { VirtualTime } from './virtualTime.ts';

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
  /** Leave out the naive poller (quick runs). */
  naive?: boolean;
}

/** What one poller did over the day. */
export interface PollerFigures {
  requests: number;
  status429: number;
  /** 429s after the first sync (steady state). */
  status429Steady: number;
  /** Requests per minute over the day. */
  perMinute: number;
  latency: LatencyFigures;
}

/** Figures of one day. */
export interface DayFigures {
  domains: number;
  hours: number;
  changes: number;
  engine: PollerFigures;
  naive: PollerFigures | null;
  firstSync: FirstSyncFigures;
  /** The engine's mirror after the day (for the read benchmarks); closed by the caller. */
  engineUnderTest: EngineUnderTest;
  wallMs: number;
}

const START = Date.parse('2026-06-15T00:00:00Z');

function figures(tally: RequestTally, latency: LatencyFigures, minutes: number, steadyFrom: number) {
  let steady = 0;
  for (const at of tally.refusedAt) if (at >= steadyFrom) steady += 1;
  return {
    requests: tally.requests,
    status429: tally.status429,
    status429Steady: steady,
    perMinute: tally.requests / minutes,
    latency,
  };
}

/** Runs one simulated day. */
export async function simulateDay(o: DayOptions): Promise<DayFigures> {
  const wall = performance.now();
  const time = new VirtualTime(START);
  const svc = await startDayService(o.domains, time);
  const engineToken = await svc.newToken();
  const naiveToken = await svc.newToken();
  // Set-up calls age out of the service's rate-limit window before the day starts.
  await time.runUntil(Math.ceil((time.now() + 60_000) / 60_000) * 60_000);
  const start = time.now();
  const end = start + o.hours * 3_600_000;

  const engineTally = newTally();
  const naiveTally = newTally();
  const watch = firstSyncWatch(time.now, start, o.domains);
  const engine = startEngine(time, injectFetch(svc.app, time, engineTally, o.roundTripMs), engineToken, (e) =>
    watch.observe(e),
  );
  const naive =
    o.naive === false
      ? null
      : startNaive(time, injectFetch(svc.app, time, naiveTally, o.roundTripMs), naiveToken, svc.domains);

  const changes = changeStream({
    seed: o.seed,
    domains: o.domains,
    start,
    durationMs: o.hours * 3_600_000,
    events: o.events,
    quietMs: o.quietMs,
    tailMs: o.tailMs,
    minBreakMs: o.minBreakMs,
  });
  const apply = async () => {
    for (const change of changes) {
      await time.sleepUntil(change.at);
      await applyChange(change);
    }
  };
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

  let finished = false;
  const runs = Promise.all([engine.run(end), naive?.run(end), apply()]).finally(() => (finished = true));
  await time.runUntil(end);
  // A tick or request mid-way at the end may still wait on the clock (the budget's wait): let it finish.
  await time.drain(() => finished, 5 * 60_000);
  await runs;

  const fqdnOf = (i: number) => svc.domains[i]!.fqdn;
  const minutes = o.hours * 60;
  const firstSync = watch.figures();
  const result: DayFigures = {
    domains: o.domains,
    hours: o.hours,
    changes: changes.length,
    engine: figures(
      engineTally,
      changeLatency(engine.mirror, engine.accountId, changes, fqdnOf),
      minutes,
      firstSync.backfilledAt ?? end,
    ),
    naive: naive
      ? figures(
          naiveTally,
          changeLatency(naive.mirror, naive.accountId, changes, fqdnOf),
          minutes,
          start + 10 * 60_000,
        )
      : null,
    firstSync,
    engineUnderTest: engine,
    wallMs: performance.now() - wall,
  };
  naive?.close();
  await svc.close();
  return result;
}
