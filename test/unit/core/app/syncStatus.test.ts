import { afterEach, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../../main/core/app.ts';
import { openMirror } from '../../../../main/core/mirror/index.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { manualScheduler } from '../../../../main/core/sync/scheduler.ts';

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
  it('keeps the default targets for 20 domains', async () => {
    const { mirror } = portfolio(20);
    const app = createAuthwatch({ mirror, secretStore: memorySecretStore(), scheduler: manualScheduler() });
    const [status] = (await app.syncStatus()).accounts;
    expect(status!.stretchFactor).toBe(1);
    // 60/minute shaped as a bucket of 16 refilling 50/minute (sync never above 60 in any minute), minus 6 for edits.
    expect(status!.capacityPerMinute).toBe(44);
    expect(status!.periods).toMatchObject({
      dns_changes: { targetSeconds: 300, effectiveSeconds: 300, jobs: 20 },
      health: { targetSeconds: 900, effectiveSeconds: 900 },
      failed_sources: { targetSeconds: 3600, effectiveSeconds: 3600 },
      security_score: { targetSeconds: 3600, effectiveSeconds: 3600 },
      domains: { targetSeconds: 3600, effectiveSeconds: 3600, jobs: 1 },
    });
  });

  it('stretches every period by the same factor for 500 domains and reports the achievable periods', async () => {
    const { mirror } = portfolio(500);
    const app = createAuthwatch({ mirror, secretStore: memorySecretStore(), scheduler: manualScheduler() });
    const [status] = (await app.syncStatus()).accounts;
    // 500 × (1/5 + 1/15 + 1/60 + 1/60) core + 500 × 2/360 history + 5 pages of domains / 60 = 152.86 per minute.
    expect(status!.demandPerMinute).toBeCloseTo(152.86, 1);
    expect(status!.stretchFactor).toBeCloseTo(3.47, 2);
    const p = status!.periods;
    // DNS changes every 17 min instead of 5, health every 52 min instead of 15: the same share for all.
    expect(p.dns_changes!.effectiveSeconds).toBe(Math.round(300 * (152.8611 / 44)));
    expect(p.health!.effectiveSeconds).toBe(Math.round(900 * (152.8611 / 44)));
    for (const signal of ['dns_changes', 'health', 'failed_sources', 'security_score', 'domains'] as const) {
      expect(p[signal]!.effectiveSeconds / p[signal]!.targetSeconds).toBeCloseTo(status!.stretchFactor, 2);
    }
  });

  it('follows a higher rate limit from the settings', async () => {
    const { mirror } = portfolio(500);
    const app = createAuthwatch({ mirror, secretStore: memorySecretStore(), scheduler: manualScheduler() });
    await app.updateSettings({ sync: { ratePerMinute: 300, headroom: 10 } });
    const [status] = (await app.syncStatus()).accounts;
    expect(status!.capacityPerMinute).toBe(240);
    expect(status!.stretchFactor).toBe(1);
    expect(status!.budget).toMatchObject({ capacity: 60, headroom: 10, ratePerMinute: 250 });
  });
});
