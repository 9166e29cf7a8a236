/**
 * The "Expiring soon" card across the bridge: its result schema holds what the facade builds from the mirror,
 * refuses a malformed entry, and the method refuses arguments that are not an account scope.
 */
import { describe, expect, it } from 'vitest';
import { createBridgeDispatcher } from '../../../shared/bridge/serve.ts';
import { expiringSoonSchema } from '../../../shared/bridge/expiringSoon.ts';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../main/core/app.ts';
import { DOMAIN_ID, mirrorWithDomain } from '../core/mirror/payloads.ts';

function world() {
  const { mirror, accountId, clock } = mirrorWithDomain();
  const inDays = (d: number) => new Date(clock.now() + d * 86_400_000 + 60_000).toISOString();
  mirror.writeLiveCheck({
    check: 'mta_sts_live',
    accountId,
    domainId: DOMAIN_ID,
    dnsSeen: null,
    status: 'problem',
    words: 'certificate expires in 9 days',
    result: {
      txtId: '1',
      host: 'mta-sts.example.com',
      address: '127.0.0.1',
      status: 200,
      error: null,
      certificate: {
        subject: 'CN=mta-sts.example.com',
        issuer: 'CN=Test CA',
        notAfter: inDays(9),
        daysLeft: 9,
        names: ['mta-sts.example.com'],
        valid: true,
        problem: null,
        chain: [],
      },
      policyText: 'version: STSv1\nmode: enforce\nmx: mx.example.com\nmax_age: 86400\n',
      policy: { mode: 'enforce', maxAge: 86400, mx: ['mx.example.com'] },
      liveMx: ['mx.example.com'],
      uncoveredMx: [],
    },
  });
  mirror.writeLiveCheck({
    check: 'token_expiry',
    accountId,
    domainId: null,
    dnsSeen: null,
    status: 'problem',
    words: 'expires in 12 days',
    result: { expiresAt: inDays(12), tokenName: 'desk', stage: '14d', when: 'expires in 12 days' },
  });
  const app = createAuthwatch({ mirror, secretStore: memorySecretStore(), clock: { now: clock.now } });
  return { app, accountId, dispatch: createBridgeDispatcher(app) };
}

describe('expiringSoon over the bridge', () => {
  it('answers the card for every account or one, as its schema says', async () => {
    const { dispatch, accountId } = world();
    for (const args of [undefined, { accountId }]) {
      const reply = await dispatch('expiringSoon', args);
      expect(reply.ok).toBe(true);
      if (!reply.ok) return;
      const card = expiringSoonSchema.parse(reply.result);
      expect(card.entries.map((e) => [e.kind, e.fqdn, e.when])).toEqual([
        ['mta_sts_certificate', 'example.com', 'expires in 9 days'],
        ['api_token', null, 'expires in 12 days'],
      ]);
      expect(card.entries[1]!.what).toBe('API token “desk” of Acme MSP');
    }
    const other = await dispatch('expiringSoon', { accountId: accountId + 1 });
    expect(other.ok && other.result).toEqual({ windowDays: 30, entries: [], checked: false });
  });

  it('refuses arguments that are not an account scope', async () => {
    const { dispatch } = world();
    for (const bad of [{ accountId: 'one' }, { accountId: 1, domainId: 2 }, 'all']) {
      const reply = await dispatch('expiringSoon', bad);
      expect(reply.ok).toBe(false);
      if (!reply.ok) expect(reply.error.code).toBe('invalid_arguments');
    }
  });

  it('the schema refuses an entry without its date or with an unknown kind', () => {
    const entry = {
      kind: 'vmc',
      accountId: 1,
      accountLabel: 'A',
      domainId: 2,
      fqdn: 'a.example',
      what: 'VMC of a.example',
      notAfter: '2026-12-01T00:00:00Z',
      daysLeft: 1,
      when: 'expires tomorrow',
      consequence: 'the logo goes',
      severity: 'critical',
    };
    const card = (e: object) => ({ windowDays: 30, checked: true, entries: [e] });
    expect(expiringSoonSchema.safeParse(card(entry)).success).toBe(true);
    const { notAfter: _gone, ...undated } = entry;
    expect(expiringSoonSchema.safeParse(card(undated)).success).toBe(false);
    expect(expiringSoonSchema.safeParse(card({ ...entry, kind: 'domain' })).success).toBe(false);
  });
});
