import { describe, expect, it } from 'vitest';
import { recordTokenExpiry } from '../../../../../main/core/accounts/tokenExpiryRecord.ts';
import type { AccountIdentity } from '../../../../../shared/bridge/results.ts';
import tokenExpiry from '../../../../../main/core/livechecks/defs/tokenExpiry.ts';
import { mirrorWithDomain } from '../../mirror/payloads.ts';
import { probeAndWrite } from '../probeHarness.ts';

const EXPIRES = '2026-12-31T00:00:00.000Z';
const daysBefore = (d: number) => new Date(Date.parse(EXPIRES) - d * 86_400_000).toISOString();
const identity = (expiresAt: string | null): AccountIdentity => ({
  userName: 'Ops',
  userEmail: 'ops@example.com',
  teamName: 'Acme',
  plan: 'protect',
  isTeamOwner: true,
  tokenName: 'authwatch',
  scopes: ['domains:read'],
  tokenExpiresAt: expiresAt,
});
const noDns = async () => ({ kind: 'unknown' as const, reason: 'no DNS here', server: '' });

describe('token_expiry (live, no request)', () => {
  it('warns 14 and 3 days before, each once, is critical when expired, and a new token ends it', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    recordTokenExpiry(mirror, accountId, identity(EXPIRES), Date.parse(daysBefore(60)));
    const at = (d: number) =>
      probeAndWrite(tokenExpiry, {
        mirror,
        accountId,
        lookup: noDns,
        at: daysBefore(d),
        now: Date.parse(daysBefore(d)),
      });
    expect((await at(20)).written.alerts).toEqual([]);
    expect((await at(13)).written.alerts).toMatchObject([
      {
        rule: 'token_expiring',
        severity: 'warning',
        title: 'API token “authwatch” of Acme MSP expires in 13 days',
      },
    ]);
    expect((await at(12)).written.alerts).toEqual([]);
    expect((await at(2)).written.alerts).toMatchObject([
      { rule: 'token_expiring', title: 'API token “authwatch” of Acme MSP expires in 2 days' },
    ]);
    expect((await at(-1)).written.alerts).toMatchObject([{ rule: 'token_expired', severity: 'critical' }]);
    expect(mirror.listAlerts({ accountId, open: true }).map((a) => a.rule)).toEqual(['token_expired']);
    recordTokenExpiry(mirror, accountId, identity('2027-12-31T00:00:00.000Z'), Date.parse(daysBefore(-1)));
    await at(-2);
    expect(mirror.listAlerts({ accountId, open: true })).toEqual([]);
  });

  it('a token that never expires says nothing; an account never checked is not applicable', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    expect((await probeAndWrite(tokenExpiry, { mirror, accountId, lookup: noDns })).outcome.status).toBe(
      'not_applicable',
    );
    recordTokenExpiry(mirror, accountId, identity(null), 0);
    const { outcome, written } = await probeAndWrite(tokenExpiry, { mirror, accountId, lookup: noDns });
    expect(written.alerts).toEqual([]);
    expect(outcome.status === 'checked' && tokenExpiry.shown.text(outcome.result)).toBe('does not expire');
  });
});
