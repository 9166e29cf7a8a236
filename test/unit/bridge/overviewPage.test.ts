/**
 * The bridge's `overviewPage` (what the window's first screen asks for): main checks its arguments before
 * reading anything, and answers what the contract says — the headline over the whole portfolio and only the
 * page's rows, each with the status the domain page shows for it.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTER } from '../../../shared/bridge/overviewFilter.ts';
import { overviewPageSchema, type OverviewPageArgs } from '../../../shared/bridge/overviewPage.ts';
import { createBridgeDispatcher } from '../../../shared/bridge/serve.ts';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../main/core/app.ts';
import { openMirror } from '../../../main/core/mirror/index.ts';
import { STATUS_MODEL } from '../../../main/core/status/statusModel.ts';
import { health } from '../core/mirror/payloads.ts';

const DOMAINS = 150;

function portfolio() {
  const mirror = openMirror(':memory:', { status: STATUS_MODEL });
  const { id: accountId } = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://x.example/api/v1' });
  mirror.writeSignal({
    accountId,
    domainId: null,
    signal: 'domains',
    payload: Array.from({ length: DOMAINS }, (_, i) => ({
      id: 1 + i,
      fqdn: `d${String(i).padStart(3, '0')}.example`,
      status: 'active',
      group_id: null,
    })),
    fetchedAt: Date.parse('2025-03-01T09:00:00Z'),
  });
  // Every third domain scanned, every ninth failing SPF.
  for (let i = 0; i < DOMAINS; i += 3)
    mirror.writeSignal({
      accountId,
      domainId: 1 + i,
      signal: 'health',
      payload: { ...health('2025-03-01T08:00:00Z', { spf: i % 9 !== 0 }), domain_id: 1 + i, fqdn: `d${i}` },
      fetchedAt: '2025-03-01T08:00:00Z',
    });
  const app = createAuthwatch({ mirror, secretStore: memorySecretStore() });
  return { app, accountId, dispatch: createBridgeDispatcher(app) };
}

const args = (patch: Partial<OverviewPageArgs> = {}): OverviewPageArgs => ({
  ...DEFAULT_FILTER,
  groupByGroup: false,
  offset: 0,
  limit: 60,
  ...patch,
});

describe('the bridge’s overviewPage', () => {
  it('answers the page asked for, checked against the contract, with the headline over every domain', async () => {
    const { dispatch } = portfolio();
    const reply = await dispatch('overviewPage', args());
    expect(reply.ok).toBe(true);
    if (!reply.ok) return;
    const page = overviewPageSchema.parse(reply.result);
    expect(page.rows).toHaveLength(60);
    expect(page.shown).toBe(DOMAINS);
    expect(page.headline.total).toBe(DOMAINS);
    expect(page.headline.byVerdict.unknown).toBe(DOMAINS - Math.ceil(DOMAINS / 3));
    expect(page.headline.failingAny).toBe(Math.ceil(DOMAINS / 9));
    expect(page.rows[0]!.fqdn).toBe('d000.example');

    const failing = await dispatch('overviewPage', args({ failing: 'spf', offset: 10, limit: 10 }));
    if (!failing.ok) throw new Error(failing.error.message);
    const spf = overviewPageSchema.parse(failing.result);
    expect(spf.shown).toBe(Math.ceil(DOMAINS / 9));
    // The 11th to the 17th failing domain: the last page is short.
    expect(spf.rows.map((r) => r.fqdn)).toEqual(
      [90, 99, 108, 117, 126, 135, 144].map((i) => `d${String(i).padStart(3, '0')}.example`),
    );
  });

  it('each row’s status is the one the domain page shows (the chips’ and verdict’s hover texts agree)', async () => {
    const { app, accountId } = portfolio();
    const page = await app.overviewPage(args({ failing: 'any', limit: 5 }));
    expect(page.rows.length).toBe(5);
    for (const row of page.rows) {
      const detail = await app.domainDetail({ accountId, domainId: row.domainId });
      expect(row.posture).toEqual(detail!.posture);
      expect(row.posture.protocols.spf.state).toBe('failing');
    }
  });

  it('refuses malformed arguments naming the field, before reading the mirror', async () => {
    const { dispatch } = portfolio();
    const cases: [unknown, RegExp][] = [
      [args({ sort: 'weather' as never }), /sort/],
      [args({ limit: 1_000 }), /limit/],
      [args({ offset: -1 }), /offset/],
      [args({ dmarc: 'strict' as never }), /dmarc/],
      [args({ failing: 'dkim' as never }), /failing/],
      [{ ...args(), extra: true }, /extra|Unrecognized/i],
      [{ offset: 0, limit: 10 }, /search/],
      [undefined, /arguments|expected object/i],
    ];
    for (const [bad, pattern] of cases) {
      const reply = await dispatch('overviewPage', bad);
      expect(reply.ok).toBe(false);
      if (reply.ok) continue;
      expect(reply.error.code).toBe('invalid_arguments');
      expect(reply.error.message).toMatch(pattern);
    }
  });

  it('an account that is not there has no rows (the window may ask before it knows the accounts)', async () => {
    const { app, accountId } = portfolio();
    const page = await app.overviewPage(args({ accountId: accountId + 41 }));
    expect(page).toMatchObject({ shown: 0, rows: [], scope: { domains: 0 } });
  });
});
