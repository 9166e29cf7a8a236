/** The sync planner for an MSP portfolio: what freshness the budget allows per signal, and how long a tick takes. */
import { SIGNALS } from '../../main/core/signals/catalog.ts';
import { budgetShape } from '../../main/core/sync/budgetShape.ts';
import { computeStretch, effectivePeriodMs, planTick, type PlanJob } from '../../main/core/sync/planner.ts';
import {
  CORE_SIGNALS,
  HISTORY_SIGNALS,
  keptPeriodMs,
  tierOf,
  weightOf,
} from '../../main/core/sync/syncJobs.ts';
import { report, timeIt } from './measure.ts';
import type { Scale } from './scale.ts';

const MINUTE = 60_000;
const SIGNALS_PER_DOMAIN = [...CORE_SIGNALS, ...HISTORY_SIGNALS];

/** The engine's jobs for `domains` domains, as buildJobs makes them, each fetched at a spread instant. */
function portfolio(domains: number, now: number): PlanJob[] {
  const jobs: PlanJob[] = [
    {
      key: 'account:domains',
      domainId: null,
      priority: weightOf(SIGNALS.domains.priority),
      targetPeriodMs: SIGNALS.domains.periodSeconds * 1000,
      cost: Math.ceil(domains / 100),
      lastSuccessAt: now - 10 * MINUTE,
      notBefore: null,
      tier: 'account',
    },
  ];
  for (let d = 1; d <= domains; d++) {
    for (const signal of SIGNALS_PER_DOMAIN) {
      const period = keptPeriodMs(signal);
      jobs.push({
        key: `${d}:${signal}`,
        domainId: d,
        priority: weightOf(SIGNALS[signal].priority),
        targetPeriodMs: period,
        cost: 1,
        lastSuccessAt: now - ((d * 7919) % period),
        notBefore: null,
        tier: tierOf(signal),
      });
    }
  }
  return jobs;
}

/** Plans ticks for 50, 200 and 1,000 domains (smoke: 50) against the engine's default budget (60/min, 6 kept for edits). */
export async function benchPlanner(scale: Scale): Promise<void> {
  // As the engine does: 60/min shaped so sync never exceeds the limit in any minute, 6 kept for edits.
  const shape = budgetShape(60, 6);
  for (const domains of scale === 'smoke' ? [50] : [50, 200, 1000]) {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const jobs = portfolio(domains, now);
    const stretch = computeStretch(jobs, shape.refillPerMinute);
    const periodOf = (signal: string) =>
      effectivePeriodMs(
        jobs.find((j) => j.key === `1:${signal}`)!,
        stretch.factor,
      ) / MINUTE;
    const tick = await timeIt(
      () => {
        const s = computeStretch(jobs, shape.refillPerMinute);
        planTick(jobs, { now, spendable: 5, factor: s.factor, burst: shape.capacity - shape.headroom });
      },
      { iterations: 20 },
    );
    report(
      `planner (${domains} domains × ${SIGNALS_PER_DOMAIN.length} signals, ${shape.refillPerMinute} requests/min for sync)`,
      [
        { name: 'demand at the targets', value: stretch.demandPerMinute, unit: 'req/min' },
        ...SIGNALS_PER_DOMAIN.map((signal) => ({
          name: `${signal} every (kept at ${keptPeriodMs(signal) / MINUTE} min)`,
          value: periodOf(signal),
          unit: 'min',
        })),
        { name: 'allocation + planTick, median', value: tick.perOpMs, unit: 'ms' },
      ],
    );
  }
}
