/** The sync planner for a large MSP portfolio: how long a tick takes and what freshness the budget allows. */
import { budgetShape } from '../../main/core/sync/budgetShape.ts';
import { computeStretch, effectivePeriodMs, planTick, type PlanJob } from '../../main/core/sync/planner.ts';
import { report, timeIt } from './measure.ts';

const MINUTE = 60_000;
const CORE = [
  { signal: 'dns_changes', period: 5 * MINUTE, priority: 4 },
  { signal: 'health', period: 15 * MINUTE, priority: 3 },
  { signal: 'failed_sources', period: 60 * MINUTE, priority: 2 },
  { signal: 'security_score', period: 60 * MINUTE, priority: 2 },
];

/** Plans ticks for 50 and 500 domains against the engine's default budget (60/min, 6 kept for edits). */
export async function benchPlanner(): Promise<void> {
  for (const domains of [50, 500]) {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const jobs: PlanJob[] = [];
    for (let d = 1; d <= domains; d++) {
      for (const c of CORE) {
        jobs.push({
          key: `${d}:${c.signal}`,
          domainId: d,
          priority: c.priority,
          targetPeriodMs: c.period,
          cost: 1,
          lastSuccessAt: now - ((d * 7919) % c.period),
          notBefore: null,
        });
      }
    }
    // As the engine does: 60/min shaped so sync never exceeds the limit in any minute, 6/min kept for edits.
    const shape = budgetShape(60, 6);
    const capacity = shape.refillPerMinute - shape.headroom;
    const stretch = computeStretch(jobs, capacity);
    const tick = await timeIt(() => planTick(jobs, { now, spendable: 10, factor: stretch.factor }), {
      iterations: 20,
    });
    report(`planner (${domains} domains × ${CORE.length} core signals, ${capacity} requests/min for sync)`, [
      { name: 'demand', value: stretch.demandPerMinute, unit: 'req/min' },
      { name: 'stretch factor', value: stretch.factor, unit: '×' },
      ...CORE.map((c) => ({
        name: `achievable ${c.signal} period (target ${c.period / MINUTE} min)`,
        value: effectivePeriodMs({ targetPeriodMs: c.period }, stretch.factor) / MINUTE,
        unit: 'min',
      })),
      { name: 'planTick, median', value: tick.perOpMs, unit: 'ms' },
    ]);
  }
}
