import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../../../main/core/sync/backoff.ts';
import { RateBudget } from '../../../../shared/api/rateBudget.ts';
import { budgetShape } from '../../../../main/core/sync/budgetShape.ts';
import {
  computeStretch,
  effectivePeriodMs,
  nextDueAt,
  planTick,
  type PlanJob,
} from '../../../../main/core/sync/planner.ts';

const MIN = 60_000;
/** The four polled signals of every domain with their default targets and priorities. */
const SIGNALS = [
  { signal: 'dns_changes', period: 5 * MIN, priority: 4 },
  { signal: 'health', period: 15 * MIN, priority: 3 },
  { signal: 'failed_sources', period: 60 * MIN, priority: 2 },
  { signal: 'security_score', period: 60 * MIN, priority: 2 },
];

function portfolio(domains: number): PlanJob[] {
  const jobs: PlanJob[] = [];
  for (let d = 1; d <= domains; d++) {
    for (const s of SIGNALS) {
      jobs.push({
        key: `${d}:${s.signal}`,
        domainId: d,
        priority: s.priority,
        targetPeriodMs: s.period,
        cost: 1,
        lastSuccessAt: null,
        notBefore: null,
      });
    }
  }
  return jobs;
}

/**
 * Simulates the engine with a fake clock: 5-second ticks (the scheduler's pace) and the production budget for a
 * 60/minute token (budgetShape: bucket 12, refill 54/minute, headroom 6 never spent by sync). `edits` takes foreground
 * requests at a tick. Returns each job's fetch times, the fewest requests an edit could make at once after a
 * tick (the bucket's headroom, within the limit's 60 s window) and the longest a whole headroom's edit waited.
 */
function simulate(jobs: PlanJob[], minutes: number, opts: { edits?: (t: number) => number } = {}) {
  let now = 0;
  const shape = budgetShape(60, 6);
  const budget = new RateBudget({ ...shape, clock: { now: () => now, sleep: async () => undefined } });
  const stretch = computeStretch(jobs, shape.refillPerMinute);
  let lowest = Number.POSITIVE_INFINITY;
  /** The longest an edit of `headroom` requests would have waited after a tick (the 60 s window's wait). */
  let longestEditWait = 0;
  const fetched = new Map<string, number[]>();
  for (let t = 0; t <= minutes * MIN; t += 5_000) {
    now = t;
    for (let e = opts.edits?.(t) ?? 0; e > 0; e--) budget.tryReserve(1);
    const spendable = budget.available({ priority: 'background' });
    const picked = planTick(jobs, { now: t, spendable, factor: stretch.factor });
    for (const job of picked) {
      expect(budget.tryReserve(job.cost, { priority: 'background' })).toBe(true);
      job.lastSuccessAt = t;
      const times = fetched.get(job.key) ?? [];
      times.push(t);
      fetched.set(job.key, times);
    }
    if (picked.length) {
      lowest = Math.min(lowest, budget.available());
      longestEditWait = Math.max(longestEditWait, budget.waitTimeMs(shape.headroom));
    }
  }
  return { stretch, fetched, lowest, longestEditWait, shape };
}

function meanInterval(times: number[] | undefined): number {
  if (!times || times.length < 2) return Number.NaN;
  return (times[times.length - 1]! - times[0]!) / (times.length - 1);
}

describe('planner: stretching', () => {
  it('keeps the targets when the budget suffices (10 domains)', () => {
    const jobs = portfolio(10);
    const stretch = computeStretch(jobs, 54);
    // 10 × (1/5 + 1/15 + 1/60 + 1/60) = 3 requests/minute.
    expect(stretch.demandPerMinute).toBeCloseTo(3, 5);
    expect(stretch.factor).toBe(1);
    expect(effectivePeriodMs(jobs[0]!, stretch.factor)).toBe(5 * MIN);
  });

  it('stretches every period by the same factor when 500 domains × 4 signals exceed the sync capacity', () => {
    const jobs = portfolio(500);
    const stretch = computeStretch(jobs, 54);
    expect(stretch.demandPerMinute).toBeCloseTo(150, 5);
    expect(stretch.factor).toBeCloseTo(150 / 54, 5);
    expect(effectivePeriodMs(jobs[0]!, stretch.factor) / MIN).toBeCloseTo(13.9, 1); // DNS changes
    expect(effectivePeriodMs(jobs[1]!, stretch.factor) / MIN).toBeCloseTo(41.7, 1); // health
  });

  it('ignores stopped jobs in the demand', () => {
    const jobs = portfolio(500).map((job) => ({ ...job, stopped: job.key.endsWith('dns_changes') }));
    expect(computeStretch(jobs, 54).demandPerMinute).toBeCloseTo(50, 5);
  });
});

describe('planner: simulated hours with a fake clock', () => {
  it('serves 500 domains fairly: every signal gets the same share of its target, near the effective period', () => {
    const jobs = portfolio(500);
    const { stretch, fetched } = simulate(jobs, 16 * 60);
    for (const s of SIGNALS) {
      const intervals = jobs
        .filter((j) => j.key.endsWith(`:${s.signal}`))
        .map((j) => meanInterval(fetched.get(j.key)?.filter((t) => t > 180 * MIN)));
      const mean = intervals.reduce((a, b) => a + b, 0) / intervals.length;
      const expected = s.period * stretch.factor;
      // Observed period within 10% of the reported effective period, for every signal alike.
      expect(Math.abs(mean - expected) / expected).toBeLessThan(0.1);
      // No domain is starved: the worst domain's interval stays within 25% of the expected one.
      expect(Math.max(...intervals)).toBeLessThan(expected * 1.25);
    }
  });

  it('meets the targets exactly when the budget suffices', () => {
    const jobs = portfolio(10);
    const { fetched } = simulate(jobs, 3 * 60);
    expect(meanInterval(fetched.get('3:dns_changes'))).toBeCloseTo(5 * MIN, -4);
    expect(meanInterval(fetched.get('3:health'))).toBeCloseTo(15 * MIN, -4);
    expect(meanInterval(fetched.get('3:security_score'))).toBeCloseTo(60 * MIN, -4);
  });

  it('never spends the headroom kept for the user’s edits, even during a 500-domain backfill', () => {
    // The window over every 60 s keeps the edits within the limit: the window's reserve (3) goes at once,
    // the rest of the headroom within a tick, never into a 429.
    const { lowest, longestEditWait, shape } = simulate(portfolio(500), 60);
    expect(lowest).toBeGreaterThanOrEqual(shape.windowReserve);
    expect(longestEditWait).toBeLessThanOrEqual(5_001);
  });

  it('yields to the user’s edits: sync spends less while edits consume tokens, and never the headroom', () => {
    // The user makes 3 edits every 10 s during the first 10 minutes.
    const edits = (t: number) => (t > 0 && t <= 10 * MIN && t % 10_000 === 0 ? 3 : 0);
    const busy = simulate(portfolio(500), 10, { edits });
    const idle = simulate(portfolio(500), 10);
    const count = (f: Map<string, number[]>) => [...f.values()].reduce((n, times) => n + times.length, 0);
    expect(count(busy.fetched)).toBeLessThan(count(idle.fetched) - 150);
    expect(busy.lowest).toBeGreaterThanOrEqual(busy.shape.windowReserve);
    expect(busy.longestEditWait).toBeLessThanOrEqual(5_001);
  });

  it('backfills whole domains in order, highest priority first within a domain', () => {
    const jobs = portfolio(3);
    const picked = planTick(jobs, { now: 0, spendable: 6, factor: 1 });
    expect(picked.map((j) => j.key)).toEqual([
      '1:dns_changes',
      '1:health',
      '1:failed_sources',
      '1:security_score',
      '2:dns_changes',
      '2:health',
    ]);
  });
});

describe('planner: urgency, budget and backoff', () => {
  const base = (over: Partial<PlanJob>): PlanJob => ({
    key: 'k',
    domainId: 1,
    priority: 1,
    targetPeriodMs: 10 * MIN,
    cost: 1,
    lastSuccessAt: 0,
    notBefore: null,
    ...over,
  });

  it('runs the job with the highest staleness × priority first', () => {
    const now = 60 * MIN;
    const jobs = [
      base({ key: 'old-low', priority: 1, lastSuccessAt: now - 30 * MIN }), // 3 × 1
      base({ key: 'newer-high', priority: 4, lastSuccessAt: now - 10 * MIN }), // 1 × 4
      base({ key: 'fresh', priority: 9, lastSuccessAt: now - 5 * MIN }), // not due
    ];
    expect(planTick(jobs, { now, spendable: 10, factor: 1 }).map((j) => j.key)).toEqual([
      'newer-high',
      'old-low',
    ]);
  });

  it('plans nothing when only the headroom is left', () => {
    expect(planTick(portfolio(2), { now: 0, spendable: 0, factor: 1 })).toEqual([]);
    expect(planTick(portfolio(2), { now: 0, spendable: -3, factor: 1 })).toEqual([]);
  });

  it('does not let cheap jobs starve an expensive one that is more urgent', () => {
    const now = 60 * MIN;
    const jobs = [
      base({ key: 'domains-list', domainId: null, cost: 5, priority: 5, lastSuccessAt: 0 }),
      base({ key: 'cheap', cost: 1, lastSuccessAt: now - 10 * MIN }),
    ];
    expect(planTick(jobs, { now, spendable: 3, factor: 1 })).toEqual([]);
    expect(planTick(jobs, { now, spendable: 6, factor: 1 }).map((j) => j.key)).toEqual([
      'domains-list',
      'cheap',
    ]);
  });

  it('holds a failing job until its backoff expires, and skips stopped jobs', () => {
    const jobs = [
      base({ key: 'backing-off', notBefore: 61 * MIN, lastSuccessAt: 0 }),
      base({ key: 'stopped', stopped: true, lastSuccessAt: null }),
    ];
    expect(planTick(jobs, { now: 60 * MIN, spendable: 10, factor: 1 })).toEqual([]);
    expect(planTick(jobs, { now: 61 * MIN, spendable: 10, factor: 1 }).map((j) => j.key)).toEqual([
      'backing-off',
    ]);
    expect(nextDueAt(jobs, 1)).toBe(61 * MIN);
  });

  it('backs off exponentially from one minute, capped at one hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((n) => backoffDelayMs(n) / MIN)).toEqual([
      1, 2, 4, 8, 16, 32, 60, 60, 60,
    ]);
  });

  it('reports when the next job becomes due', () => {
    const jobs = [base({ key: 'a', lastSuccessAt: 0 }), base({ key: 'b', lastSuccessAt: 2 * MIN })];
    expect(nextDueAt(jobs, 1)).toBe(10 * MIN);
    expect(nextDueAt(jobs, 2)).toBe(20 * MIN);
  });
});
