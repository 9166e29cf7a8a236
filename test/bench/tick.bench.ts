/**
 * What a sync tick's planning costs as the portfolio grows (issue 21, item 3): the job book (the
 * incremental planner the ticks use) against a full re-plan from the mirror (every job built, allocated and
 * scanned, as ticks did before), in steady state after a tick wrote 5 health snapshots, at several N; and
 * the planning CPU of a whole first sync with the book (every job planned once, 5 a tick). Prints figures.
 */
import { openMirror } from '../../main/core/mirror/index.ts';
import type { Mirror } from '../../main/core/mirror/types.ts';
import type { SignalName } from '../../main/core/signals/catalog.ts';
import { JobBook } from '../../main/core/sync/jobBook.ts';
import { computeStretch, planTick } from '../../main/core/sync/planner.ts';
import { buildJobs, CORE_SIGNALS, HISTORY_SIGNALS } from '../../main/core/sync/syncJobs.ts';
import { report } from './measure.ts';

const SIGNALS: SignalName[] = [...CORE_SIGNALS, ...HISTORY_SIGNALS];
const CAPACITY = 54;
const START = Date.parse('2026-06-15T00:00:00Z');

/** The cheapest payload each signal accepts (the planning does not read it). */
function payload(signal: SignalName, id: number, at: number): unknown {
  const names = { domain_id: id, fqdn: `d${id}.example` };
  const iso = new Date(at).toISOString();
  if (signal === 'health')
    return {
      ...names,
      source: 'guard_history',
      result: 'Protected',
      protocols: { dmarc: true, spf: true, mta_sts: false, tls_rpt: false, bimi: false },
      protocols_passing: 2,
      total_protocols: 5,
      scanned_at: iso,
    };
  if (signal === 'security_score') return { ...names, score: 4, max_score: 10, computed_at: iso };
  if (signal === 'failed_sources') return { ...names, failed_sources: [] };
  if (signal === 'score_history') return { ...names, history: [] };
  return [];
}

function write(mirror: Mirror, accountId: number, signal: SignalName, id: number, at: number) {
  mirror.writeSignal({
    accountId,
    domainId: id,
    signal,
    payload: payload(signal, id, at),
    fetchedAt: at,
  } as Parameters<Mirror['writeSignal']>[0]);
}

function portfolio(n: number) {
  let now = START;
  const mirror = openMirror(':memory:', { clock: { now: () => now } });
  const { id: accountId } = mirror.upsertAccount({ label: 'bench', baseUrl: 'http://bench/api/v1' });
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  mirror.writeSignal({
    accountId,
    domainId: null,
    signal: 'domains',
    payload: ids.map((id) => ({ id, fqdn: `d${id}.example` })),
    fetchedAt: now,
  });
  return { mirror, accountId, ids, clock: { get: () => now, set: (t: number) => (now = t) } };
}

/** Median of per-tick planning times (ms) over `ticks` ticks, each after 5 health writes (not timed). */
function steadyTick(n: number, ticks: number, plan: (p: ReturnType<typeof portfolio>) => () => void) {
  const p = portfolio(n);
  let t = p.clock.get();
  for (const id of p.ids) for (const signal of SIGNALS) write(p.mirror, p.accountId, signal, id, (t += 10));
  const step = plan(p);
  step(); // the book's first read of the whole list (once)
  const samples: number[] = [];
  let next = 0;
  for (let k = 0; k < ticks; k++) {
    t += 5_000;
    p.clock.set(t);
    for (let w = 0; w < 5; w++) write(p.mirror, p.accountId, 'health', p.ids[next++ % n]!, t);
    const start = process.hrtime.bigint();
    step();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  p.mirror.close();
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

const withBook = (p: ReturnType<typeof portfolio>) => {
  const book = new JobBook(p.mirror, p.accountId, new Map());
  return () => book.plan(p.clock.get(), { capacityPerMinute: CAPACITY, spendable: 5, burst: 6 });
};

const fullReplan = (p: ReturnType<typeof portfolio>) => {
  const gaps = new Map<string, number>();
  return () => {
    const now = p.clock.get();
    const jobs = buildJobs({
      domains: p.mirror.listDomains(p.accountId),
      states: p.mirror.getSyncStates(p.accountId),
      now,
      gaps,
    });
    const stretch = computeStretch(jobs, CAPACITY);
    planTick(jobs, { now, spendable: 5, factor: stretch.factor, burst: 6 });
  };
};

/** The planning CPU of a first sync with the book: 5 jobs a tick, each written as fetched, until none is new. */
function firstSyncPlanning(n: number): { ms: number; ticks: number } {
  const p = portfolio(n);
  const book = new JobBook(p.mirror, p.accountId, new Map());
  let t = p.clock.get();
  let planning = 0n;
  let ticks = 0;
  for (;;) {
    t += 5_000;
    p.clock.set(t);
    const start = process.hrtime.bigint();
    const { picked } = book.plan(t, { capacityPerMinute: CAPACITY, spendable: 5, burst: 6 });
    const backfilling = book.backfilling();
    planning += process.hrtime.bigint() - start;
    ticks += 1;
    if (!backfilling) break;
    for (const job of picked)
      if (job.domainId !== null) write(p.mirror, p.accountId, job.signal, job.domainId, t);
  }
  p.mirror.close();
  return { ms: Number(planning) / 1e6, ticks };
}

/** Prints the per-tick cost at several N (book and full re-plan) and the first sync's planning CPU. */
export async function benchTick(): Promise<void> {
  const sizes = [250, 1000, 2500, 5000];
  const figures = [];
  for (const n of sizes) {
    const book = steadyTick(n, 200, withBook);
    const full = steadyTick(n, n >= 2500 ? 10 : 30, fullReplan);
    figures.push(
      { name: `${n} domains (${6 * n + 1} jobs): book, median`, value: book, unit: 'ms/tick' },
      { name: `${n} domains: full re-plan from the mirror, median`, value: full, unit: 'ms/tick' },
    );
  }
  for (const n of [1000, 5000]) {
    const first = firstSyncPlanning(n);
    figures.push({
      name: `first sync of ${n} domains: planning CPU (${first.ticks} ticks)`,
      value: first.ms,
      unit: 'ms',
    });
  }
  report(
    `a sync tick's planning (5 health writes a tick; ${CAPACITY} requests/min for sync; load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`,
    figures,
  );
}
