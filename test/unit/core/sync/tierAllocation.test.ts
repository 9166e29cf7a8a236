import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateBudget } from '../../../../shared/api/rateBudget.ts';
import { budgetShape } from '../../../../main/core/sync/budgetShape.ts';
import {
  computeStretch,
  effectivePeriodMs,
  planTick,
  type PlanJob,
} from '../../../../main/core/sync/planner.ts';
import { DEFAULT_TICK_MS } from '../../../../main/core/sync/scheduler.ts';
import { ALERT_PERIOD_FLOOR_MS, allocateTiers } from '../../../../main/core/sync/tierAllocation.ts';
import { tierOf } from '../../../../main/core/sync/syncJobs.ts';
import type { SignalName } from '../../../../main/core/signals/catalog.ts';
import { createManualClock } from '../../../support/manualClock.ts';

const MIN = 60_000;
const TARGETS: [SignalName, number][] = [
  ['dns_changes', 5 * MIN],
  ['health', 15 * MIN],
  ['failed_sources', 60 * MIN],
  ['security_score', 60 * MIN],
  ['health_history', 360 * MIN],
  ['score_history', 360 * MIN],
];

/** The engine's jobs for `domains` domains (as buildJobs makes them), never fetched. */
function portfolio(domains: number): (PlanJob & { signal: SignalName })[] {
  const jobs: (PlanJob & { signal: SignalName })[] = [
    {
      key: 'account:domains',
      signal: 'domains',
      domainId: null,
      priority: 5,
      targetPeriodMs: 60 * MIN,
      cost: Math.ceil(domains / 100),
      lastSuccessAt: null,
      notBefore: null,
      tier: 'account',
    },
  ];
  for (let d = 1; d <= domains; d++) {
    for (const [signal, period] of TARGETS) {
      jobs.push({
        key: `${d}:${signal}`,
        signal,
        domainId: d,
        priority: 3,
        targetPeriodMs: period,
        cost: 1,
        lastSuccessAt: null,
        notBefore: null,
        tier: tierOf(signal),
      });
    }
  }
  return jobs;
}

/** Runs the planner on the manual clock with the production budget and tick; returns every fetch. */
function simulate(domains: number, minutes: number) {
  const clock = createManualClock('2026-06-15T00:00:00Z');
  const now = () => clock.now().getTime();
  const shape = budgetShape(60, 6);
  const budget = new RateBudget({ ...shape, clock: { now, sleep: async () => undefined } });
  const jobs = portfolio(domains);
  const start = now();
  const sent: { at: number; job: PlanJob & { signal: SignalName } }[] = [];
  for (let t = 0; t <= minutes * MIN; t += DEFAULT_TICK_MS) {
    const stretch = computeStretch(jobs, shape.refillPerMinute);
    const picked = planTick(jobs, {
      now: now(),
      spendable: budget.available({ priority: 'background' }),
      factor: stretch.factor,
      burst: shape.capacity - shape.headroom,
    });
    for (const job of picked) {
      // A job dearer than the burst takes what is there; its other pages would wait for the budget.
      const take = Math.min(job.cost, budget.available({ priority: 'background' }));
      expect(budget.tryReserve(take, { priority: 'background' })).toBe(true);
      job.lastSuccessAt = now();
      sent.push({ at: now() - start, job: job as PlanJob & { signal: SignalName } });
    }
    clock.advance(DEFAULT_TICK_MS);
  }
  return { sent, jobs };
}

describe('tier allocation', () => {
  it('gives the alert signals of every domain one common period from what the score, history and list leave', () => {
    for (const domains of [50, 200, 1000]) {
      const jobs = portfolio(domains);
      const a = allocateTiers(jobs, 54);
      const periods = new Set(jobs.filter((j) => j.tier === 'alert').map((j) => j.periodMs));
      expect(periods).toEqual(new Set([a.alertPeriodMs]));
      // The score and the history keep their targets at these sizes; the shares add up to the capacity.
      expect(a.keepFactor).toBe(1);
      const total = a.perMinute.account + a.perMinute.alert + a.perMinute.context + a.perMinute.history;
      expect(total).toBeCloseTo(54, 0);
      expect(
        effectivePeriodMs(
          jobs.find((j) => j.signal === 'security_score')!,
          1,
        ),
      ).toBe(60 * MIN);
    }
    // 1,000 domains: 3,000 alert jobs on 54 − 1000/60 − 2000/360 − 10/60 ≈ 31.6 per minute: every 95 minutes.
    expect(allocateTiers(portfolio(1000), 54).alertPeriodMs / MIN).toBeCloseTo(94.9, 0);
  });

  it('never polls an alert signal more often than once a minute, leaving the rest of a large budget unspent', () => {
    const a = allocateTiers(portfolio(5), 54);
    expect(a.alertPeriodMs).toBe(ALERT_PERIOD_FLOOR_MS);
    expect(a.perMinute.alert).toBeCloseTo(15, 5);
  });

  it('stretches the score and history alike once they would take more than half the capacity', () => {
    const a = allocateTiers(portfolio(1000), 30);
    expect(a.keepFactor).toBeGreaterThan(1);
    expect(a.perMinute.context + a.perMinute.history + a.perMinute.account).toBeCloseTo(15, 0);
  });
});

describe('tiered planning on the manual clock (production budget, 5-second ticks)', () => {
  it('watches every domain (health, DNS changes, failed sources) before any history is backfilled', () => {
    const { sent } = simulate(200, 40);
    const firstHistory = sent.findIndex((s) => s.job.tier === 'history');
    const alertFetches = sent.slice(0, firstHistory).filter((s) => s.job.tier === 'alert');
    expect(firstHistory).toBeGreaterThan(0);
    expect(new Set(alertFetches.map((s) => s.job.key)).size).toBe(600);
    // Watching 200 domains takes 2 + 600 requests; at 54 a minute that is about 11 minutes.
    const watchedAt = alertFetches[alertFetches.length - 1]!.at;
    expect(watchedAt).toBeLessThan(12 * MIN);
  });

  it('spends at least 90 % of the 60/minute limit when demand exceeds it, and polls threats as often as DNS', () => {
    const { sent } = simulate(1000, 3 * 60);
    const lastHour = sent.filter((s) => s.at >= 2 * 60 * MIN);
    expect(lastHour.length / 60).toBeGreaterThanOrEqual(54 - 1);
    const fetchesOf = (signal: SignalName) => lastHour.filter((s) => s.job.signal === signal).length;
    expect(Math.abs(fetchesOf('failed_sources') - fetchesOf('dns_changes'))).toBeLessThan(40);
  });

  it('never sends more than the limit in any 60-second window, whatever the portfolio size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), (domains) => {
        const { sent } = simulate(domains, 20);
        const times = sent.flatMap((s) => Array.from({ length: Math.min(s.job.cost, 6) }, () => s.at));
        for (let i = 0, j = 0; i < times.length; i++) {
          while (times[i]! - times[j]! >= MIN) j++;
          expect(i - j + 1).toBeLessThanOrEqual(60);
        }
      }),
      { numRuns: 15 },
    );
  });
});
