/**
 * What the context tier (the checks polled for every domain at long periods: security score, MTA-STS, BIMI
 * readiness, …) costs, computed from the signals' own plans rather than written in prose that goes stale when
 * a signal is added: at 1,000 domains its reads must stay within 1 % of the 60-a-minute budget, so the
 * alert-bearing reads keep the rest. A new context signal whose period is too short fails here with every
 * signal's share in figures.
 */
import { describe, expect, it } from 'vitest';
import { SIGNAL_NAMES } from '../../../../main/core/signals/catalog.ts';
import { SIGNAL_DEFINITIONS } from '../../../../main/core/signals/registry.ts';
import { costOf, keptPeriodMs } from '../../../../main/core/sync/syncJobs.ts';

const DOMAINS = 1_000;
const BUDGET_PER_MINUTE = 60;
const SHARE = 0.01;

/** Each context signal's reads a minute at DOMAINS domains, at the period the sync keeps it at. */
function contextReads(): { signal: string; perMinute: number }[] {
  return SIGNAL_NAMES.filter((name) => SIGNAL_DEFINITIONS[name].plan.tier === 'context').map((signal) => ({
    signal,
    perMinute: (DOMAINS * costOf(signal, DOMAINS) * 60_000) / keptPeriodMs(signal),
  }));
}

describe('the context tier’s cost', () => {
  it(`stays within ${SHARE * 100} % of the ${BUDGET_PER_MINUTE}/min budget at ${DOMAINS} domains`, () => {
    const reads = contextReads();
    const total = reads.reduce((sum, r) => sum + r.perMinute, 0);
    const figures =
      reads.map((r) => `${r.signal} ${r.perMinute.toFixed(3)}/min`).join(', ') +
      ` = ${total.toFixed(3)}/min, ${((100 * total) / BUDGET_PER_MINUTE).toFixed(2)} % of ${BUDGET_PER_MINUTE}/min`;
    expect(reads.length, 'context signals').toBeGreaterThan(0);
    expect(
      total,
      `context tier at ${DOMAINS} domains: ${figures} (at most ${SHARE * 100} %)`,
    ).toBeLessThanOrEqual(BUDGET_PER_MINUTE * SHARE);
  });
});
