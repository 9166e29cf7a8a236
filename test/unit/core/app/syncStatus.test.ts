import { afterEach, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../../main/core/app.ts';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { manualScheduler } from '../../../../main/core/sync/scheduler.ts';
import { CORE_SIGNALS, HISTORY_SIGNALS, keptPeriodMs, tierOf } from '../../../../main/core/sync/syncJobs.ts';

/**
 * What one domain's reads beside the alert-bearing ones take a minute, from the registry's plans: the four
 * weekly reads (score, DNS changes, both histories) and the context checks (MTA-STS every three days, BIMI
 * readiness weekly, ...), so a new signal changes the figure here by its definition alone.
 */
const OTHER_READS_PER_DOMAIN = [...CORE_SIGNALS, ...HISTORY_SIGNALS]
  .filter((signal) => tierOf(signal) !== 'alert')
  .reduce((sum, signal) => sum + 60_000 / keptPeriodMs(signal), 0);

let mirror: Mirror;
afterEach(() => mirror?.close());

/** A mirror holding one account whose domain list has `count` domains (as if the list had been synced). */
function portfolio(count: number): { mirror: Mirror; accountId: number } {
  const now = Date.parse('2026-06-15T12:00:00Z');
  mirror = openMirror(':memory:', { clock: { now: () => now } });
  const account = mirror.upsertAccount({ label: 'MSP', baseUrl: 'https://api.example.test/api/v1' });
  const domains = Array.from({ length: count }, (_, i) => ({ id: i + 1, fqdn: `d${i + 1}.example` }));
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: domains,
    fetchedAt: now,
  });
  return { mirror, accountId: account.id };
}

describe('syncStatus: the freshness the budget can achieve', () => {
  it('polls the alert signals of 20 domains faster than their targets, the rest at their targets', async () => {
    const { mirror } = portfolio(20);
    const app = createAuthwatch({ mirror, secretStore: memorySecretStore(), scheduler: manualScheduler() });
    const [status] = (await app.syncStatus()).accounts;
    expect(status!.stretchFactor).toBe(1);
    // 60/minute shaped as a bucket of 12 refilling 54/minute (sync never above 60 in any minute, 6 kept for edits).
    expect(status!.capacityPerMinute).toBe(54);
    // Health and failed sources of 20 domains (40 polls a period) would share 54 − 1/60 − 80/10080 per
    // minute every 44 s: the one-minute floor holds them. The score (derived from health, confirmed by its
    // endpoint), the DNS changes (read after health shows a record change) and the histories (derived from
    // the health polls) are read weekly.
    const WEEK_S = 7 * 86_400;
    expect(status!.periods).toMatchObject({
      dns_changes: { targetSeconds: WEEK_S, effectiveSeconds: WEEK_S, jobs: 20 },
      health: { targetSeconds: 900, effectiveSeconds: 60 },
      failed_sources: { targetSeconds: 3600, effectiveSeconds: 60 },
      security_score: { targetSeconds: WEEK_S, effectiveSeconds: WEEK_S },
      health_history: { targetSeconds: WEEK_S, effectiveSeconds: WEEK_S },
      domains: { targetSeconds: 3600, effectiveSeconds: 3600, jobs: 1 },
    });
  });

  it('gives health and failed sources of 500 domains one common period from what the list and the weekly reads leave', async () => {
    const { mirror } = portfolio(500);
    const app = createAuthwatch({ mirror, secretStore: memorySecretStore(), scheduler: manualScheduler() });
    const [status] = (await app.syncStatus()).accounts;
    // 500 × (1/15 + 1/60) alert reads at their targets + 500 × the other reads (4/10080 weekly reads and the
    // context checks) + 5 pages of domains / 60.
    const week = 7 * 24 * 60;
    expect(OTHER_READS_PER_DOMAIN).toBeGreaterThanOrEqual(4 / week);
    const demand = 500 * (1 / 15 + 1 / 60) + 500 * OTHER_READS_PER_DOMAIN + 5 / 60;
    expect(status!.demandPerMinute).toBeCloseTo(demand, 1);
    expect(status!.stretchFactor).toBe(1);
    const p = status!.periods;
    // 1,000 health and failed-sources polls on 54 − 5/60 − 500 × the other reads per minute: both every
    // 18.6 min, the lower bound 2N/54 = 18.5 min less only what the list, the weekly reads and the checks take.
    const alertMinutes = 1000 / (54 - 5 / 60 - 500 * OTHER_READS_PER_DOMAIN);
    for (const signal of ['health', 'failed_sources'] as const) {
      expect(p[signal]!.effectiveSeconds / 60).toBeCloseTo(alertMinutes, 0);
    }
    for (const signal of ['security_score', 'dns_changes', 'score_history', 'domains'] as const) {
      expect(p[signal]!.effectiveSeconds).toBe(p[signal]!.targetSeconds);
    }
  });

  it('follows a higher rate limit from the settings', async () => {
    const { mirror } = portfolio(500);
    const app = createAuthwatch({ mirror, secretStore: memorySecretStore(), scheduler: manualScheduler() });
    await app.updateSettings({ sync: { ratePerMinute: 300, headroom: 10 } });
    const [status] = (await app.syncStatus()).accounts;
    expect(status!.capacityPerMinute).toBe(270);
    expect(status!.stretchFactor).toBe(1);
    expect(status!.budget).toMatchObject({ capacity: 40, headroom: 10, ratePerMinute: 270 });
  });
});
