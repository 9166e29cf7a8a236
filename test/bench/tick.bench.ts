/**
 * What a sync tick's planning costs as the portfolio grows (issue 21, item 3): the job book (the
 * incremental planner the ticks use) against a full re-plan from the mirror (every job built, allocated and
 * scanned, as ticks did before), in steady state after a tick wrote 5 health snapshots, at several N; and
 * the planning CPU of a first sync with the book (as the engine's budget lets jobs through). Prints figures.
 *
 * Until 2026-11-29 the first sync at 5,000 domains never ended: it was given 5 requests a tick, never the
 * 6 the domain list costs (its pages capped at the bucket's burst), so once the list came due (after an
 * alert period) the planner waited for it forever, as it should, and nothing else ran; and since the
 * planner reads a large portfolio's score and history within ~1 % of the budget, "every job read once"
 * is weeks of simulated time there. Now the budget is the engine's bucket, the list is written when read,
 * and 5,000 domains stop when every domain is watched (--full adds their first 24 h).
 */
import type { SignalName } from '../../main/core/signals/catalog.ts';
import { JobBook } from '../../main/core/sync/jobBook.ts';
import { loadavg } from 'node:os';
import { CORE_SIGNALS, HISTORY_SIGNALS, tierOf } from '../../main/core/sync/syncJobs.ts';
import { report } from './measure.ts';
import { portfolio, write } from './mirrorPortfolio.ts';
import { progress, simulated } from './progress.ts';
import type { Scale } from './scale.ts';

const SIGNALS: SignalName[] = [...CORE_SIGNALS, ...HISTORY_SIGNALS];
/** The signals whose reads watch a domain (health, failed sources): the rest are score and history. */
const ALERT_SIGNALS = SIGNALS.filter((signal) => tierOf(signal) === 'alert').length;
const CAPACITY = 54;

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

/**
 * A full re-plan from the mirror, as ticks did before the book kept its jobs: a book built afresh each tick
 * (every domain and sync state read, every job built, allocated and scanned) — the production planner's
 * rebuild, the one it still does when the domain list changes.
 */
const fullReplan = (p: ReturnType<typeof portfolio>) => {
  const gaps = new Map<string, number>();
  return () => {
    new JobBook(p.mirror, p.accountId, gaps).plan(p.clock.get(), {
      capacityPerMinute: CAPACITY,
      spendable: 5,
      burst: 6,
    });
  };
};

/** The token bucket of the engine's default budget (budgetShape(60, 6)): 12 deep, 6 kept for edits. */
const BUCKET = 12;
const HEADROOM = 6;
/** Nothing picked for this long while jobs wait is a stall, not a sync: a bench that waited forever did. */
const STALL_MS = 6 * 3_600_000;

/**
 * The planning CPU of a first sync with the book, each picked job written as fetched (the domain list too)
 * and paid from the engine's token bucket, refilled at CAPACITY a minute: until every domain is watched
 * (health and failed sources read once), or until no job is new. A large portfolio reads its score and
 * history within ~1 % of the budget (tierAllocation.ts), so at 5,000 domains "no job new" is weeks of
 * simulated time: `maxHours` stops there and says how far it got.
 */
function firstSyncPlanning(
  n: number,
  until: 'watched' | 'all',
  maxHours = Infinity,
): { ms: number; ticks: number; keepRead: number; keepTotal: number; finished: boolean } {
  const p = portfolio(n);
  const book = new JobBook(p.mirror, p.accountId, new Map());
  const shown = progress(`tick: first sync of ${n} domains`);
  const start = p.clock.get();
  let t = start;
  let planning = 0n;
  let ticks = 0;
  let tokens = BUCKET;
  let pickedAt = start;
  const watched = new Set<string>();
  const keepRead = new Set<string>();
  const keepTotal = n * (SIGNALS.length - ALERT_SIGNALS);
  for (;;) {
    t += 5_000;
    p.clock.set(t);
    tokens = Math.min(BUCKET, tokens + CAPACITY / 12);
    const began = process.hrtime.bigint();
    const { picked } = book.plan(t, {
      capacityPerMinute: CAPACITY,
      spendable: Math.floor(tokens - HEADROOM),
      burst: BUCKET - HEADROOM,
    });
    const backfilling = book.backfilling();
    planning += process.hrtime.bigint() - began;
    ticks += 1;
    if (picked.length > 0) pickedAt = t;
    else if (t - pickedAt > STALL_MS)
      // A bench that waits forever looks like a slow one: say so instead (issue 38).
      throw new Error(
        `tick: the first sync of ${n} domains picked nothing for ${STALL_MS / 3_600_000} simulated hours (${ticks} ticks in)`,
      );
    for (const job of picked) {
      tokens -= Math.min(Math.max(1, Math.ceil(job.cost)), BUCKET - HEADROOM);
      if (job.tier === 'alert') watched.add(job.key);
      else if (job.domainId !== null) keepRead.add(job.key);
    }
    const done = until === 'watched' ? watched.size >= ALERT_SIGNALS * n : !backfilling;
    const out = (t - start) / 3_600_000 >= maxHours;
    shown(
      `${simulated(t - start, Math.min(maxHours, 24) * 3_600_000)}, ${watched.size} of ${ALERT_SIGNALS * n} watched, ${keepRead.size} of ${keepTotal} score and history read`,
    );
    if (done || out) {
      p.mirror.close();
      return {
        ms: Number(planning) / 1e6,
        ticks,
        keepRead: keepRead.size,
        keepTotal,
        finished: done,
      };
    }
    for (const job of picked)
      if (job.domainId !== null) write(p.mirror, p.accountId, job.signal, job.domainId, t);
      else
        p.mirror.writeSignal({
          accountId: p.accountId,
          domainId: null,
          signal: 'domains',
          payload: p.ids.map((id) => ({ id, fqdn: `d${id}.example` })),
          fetchedAt: t,
        });
  }
}

/** What the default run measures: steady ticks at every N, and how far each first sync runs. */
const DEFAULT_PLAN = {
  steady: [250, 1000, 2500, 5000],
  ticks: 200,
  first: [
    { n: 1000, until: 'all' },
    { n: 5000, until: 'watched' },
  ] as { n: number; until: 'watched' | 'all'; maxHours?: number }[],
};

/**
 * By scale: the smoke's smallest sizes (its first sync at 50 domains: since the backfill yields to the alert
 * reads, every signal read once at 250 is ~70 simulated hours, 50,000 ticks — a minute of CPU); --full adds
 * the first 24 simulated hours of 5,000 domains.
 */
const PLAN: Record<Scale, typeof DEFAULT_PLAN> = {
  smoke: { steady: [250], ticks: 20, first: [{ n: 50, until: 'all' }] },
  default: DEFAULT_PLAN,
  full: { ...DEFAULT_PLAN, first: [...DEFAULT_PLAN.first, { n: 5000, until: 'all', maxHours: 24 }] },
};

/** Prints the per-tick cost at several N (book and full re-plan) and the first sync's planning CPU. */
export async function benchTick(scale: Scale): Promise<void> {
  const plan = PLAN[scale];
  const figures = [];
  for (const n of plan.steady) {
    const book = steadyTick(n, plan.ticks, withBook);
    const full = steadyTick(n, Math.min(plan.ticks, n >= 2500 ? 10 : 30), fullReplan);
    figures.push(
      {
        name: `${n} domains (${SIGNALS.length * n + 1} jobs): book, median`,
        value: book,
        unit: 'ms/tick',
      },
      { name: `${n} domains: full re-plan from the mirror, median`, value: full, unit: 'ms/tick' },
    );
  }
  for (const { n, until, maxHours } of plan.first) {
    const first = firstSyncPlanning(n, until, maxHours);
    const what =
      until === 'watched'
        ? 'until every domain watched'
        : first.finished
          ? 'every signal read once'
          : `its first ${maxHours} h (score and history: ${first.keepRead} of ${first.keepTotal} read)`;
    figures.push({
      name: `first sync of ${n} domains, ${what}: planning CPU (${first.ticks} ticks)`,
      value: first.ms,
      unit: 'ms',
    });
  }
  report(
    `a sync tick's planning (5 health writes a tick; ${CAPACITY} requests/min for sync; load average ${loadavg()[0]!.toFixed(1)})`,
    figures,
  );
}
