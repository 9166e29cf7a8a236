/**
 * The sync planner for an MSP portfolio: what freshness the budget allows per signal, and how long the
 * production planner (the job book) takes to build an account's jobs from the mirror and plan a tick.
 */
import { budgetShape } from '../../main/core/sync/budgetShape.ts';
import { JobBook } from '../../main/core/sync/jobBook.ts';
import { computeStretch, effectivePeriodMs } from '../../main/core/sync/planner.ts';
import { buildJobs, CORE_SIGNALS, HISTORY_SIGNALS, keptPeriodMs } from '../../main/core/sync/syncJobs.ts';
import { report, timeIt } from './measure.ts';
import { portfolio, write } from './mirrorPortfolio.ts';
import type { Scale } from './scale.ts';

const MINUTE = 60_000;
const SIGNALS_PER_DOMAIN = [...CORE_SIGNALS, ...HISTORY_SIGNALS];

/** Plans ticks for 50, 200 and 1,000 domains (smoke: 50) against the engine's default budget (60/min, 6 kept for edits). */
export async function benchPlanner(scale: Scale): Promise<void> {
  // As the engine does: 60/min shaped so sync never exceeds the limit in any minute, 6 kept for edits.
  const shape = budgetShape(60, 6);
  for (const domains of scale === 'smoke' ? [50] : [50, 200, 1000]) {
    const now = Date.parse('2026-01-01T12:00:00Z');
    // Every job fetched once, at a spread instant within its kept period (the steady state).
    const p = portfolio(domains, now - 10 * MINUTE);
    p.clock.set(now);
    for (const id of p.ids)
      for (const signal of SIGNALS_PER_DOMAIN)
        write(p.mirror, p.accountId, signal, id, now - ((id * 7919) % keptPeriodMs(signal)));
    const jobs = buildJobs({
      domains: p.mirror.listDomains(p.accountId),
      states: p.mirror.getSyncStates(p.accountId),
      now,
    });
    const stretch = computeStretch(jobs, shape.refillPerMinute);
    const periodOf = (signal: string) =>
      effectivePeriodMs(
        jobs.find((j) => j.key === `1:${signal}`)!,
        stretch.factor,
      ) / MINUTE;
    const tick = await timeIt(
      () => {
        new JobBook(p.mirror, p.accountId, new Map()).plan(now, {
          capacityPerMinute: shape.refillPerMinute,
          spendable: 5,
          burst: shape.capacity - shape.headroom,
        });
      },
      { iterations: 20 },
    );
    p.mirror.close();
    report(
      `planner (${domains} domains × ${SIGNALS_PER_DOMAIN.length} signals, ${shape.refillPerMinute} requests/min for sync)`,
      [
        { name: 'demand at the targets', value: stretch.demandPerMinute, unit: 'req/min' },
        ...SIGNALS_PER_DOMAIN.map((signal) => ({
          name: `${signal} every (kept at ${keptPeriodMs(signal) / MINUTE} min)`,
          value: periodOf(signal),
          unit: 'min',
        })),
        { name: 'job book built from the mirror and planned, median', value: tick.perOpMs, unit: 'ms' },
      ],
    );
  }
}
