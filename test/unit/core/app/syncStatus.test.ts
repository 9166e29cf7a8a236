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
  it('polls the alert signals of 20 domains faster than their targets, the rest at their targets', async () => {
    const { mirror } = portfolio(20);
    const app = createAuthwatch({ mirror, secretStore: memorySecretStore(), scheduler: manualScheduler() });
    const [status] = (await app.syncStatus()).accounts;
    expect(status!.stretchFactor).toBe(1);
    // 60/minute shaped as a bucket of 12 refilling 54/minute (sync never above 60 in any minute, 6 kept for edits).
    expect(status!.capacityPerMinute).toBe(54);
    // Health and failed sources of 20 domains plus a fourth of their DNS changes (45 polls a period) would
    // share 54 − 1/60 − 20/60 − 40/360 per minute every 50 s: the one-minute floor holds them, DNS changes
    // come every fourth minute.
    expect(status!.periods).toMatchObject({
      dns_changes: { targetSeconds: 300, effectiveSeconds: 240, jobs: 20 },
      health: { targetSeconds: 900, effectiveSeconds: 60 },
      failed_sources: { targetSeconds: 3600, effectiveSeconds: 60 },
      security_score: { targetSeconds: 3600, effectiveSeconds: 3600 },
      domains: { targetSeconds: 3600, effectiveSeconds: 3600, jobs: 1 },
    });
  });

  it('gives health and failed sources of 500 domains one common period from what the score and history leave', async () => {
    const { mirror } = portfolio(500);
    const app = createAuthwatch({ mirror, secretStore: memorySecretStore(), scheduler: manualScheduler() });
    const [status] = (await app.syncStatus()).accounts;
    // 500 × (1/5 + 1/15 + 1/60 + 1/60) core + 500 × 2/360 history + 5 pages of domains / 60 = 152.86 per minute.
    expect(status!.demandPerMinute).toBeCloseTo(152.86, 1);
    expect(status!.stretchFactor).toBeCloseTo(152.8611 / 54, 2);
    const p = status!.periods;
    // 1,000 health and failed-sources polls plus a fourth of 500 DNS changes, on 54 − 5/60 − 500/60 − 1000/360
    // per minute: health and failed sources every 26 min, DNS changes every 105 min (health shows the same
    // record changes); the score, the history and the domain list keep their targets.
    const alertMinutes = 1125 / (54 - 5 / 60 - 500 / 60 - 1000 / 360);
    for (const signal of ['health', 'failed_sources'] as const) {
      expect(p[signal]!.effectiveSeconds / 60).toBeCloseTo(alertMinutes, 0);
    }
    expect(p.dns_changes!.effectiveSeconds / 60).toBeCloseTo(4 * alertMinutes, 0);
    for (const signal of ['security_score', 'domains'] as const) {
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
