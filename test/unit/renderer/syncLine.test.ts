import { describe, expect, it } from 'vitest';
import { syncLine } from '../../../renderer/src/lib/syncLine.ts';
import type { Connectivity, SyncStatus } from '../../../shared/bridge/results.ts';

type AccountSync = SyncStatus['accounts'][number];
const account = (over: Partial<AccountSync> = {}): AccountSync =>
  ({
    accountId: 1,
    label: 'Acme',
    state: 'active',
    pausedReason: null,
    lastSuccessAt: '2026-06-15T11:48:00Z',
    backfill: { domainsDone: 14, domainsTotal: 14, complete: true },
    ...over,
  }) as AccountSync;
const online: Connectivity = {
  accountId: 1,
  online: true,
  lastSuccessAt: '2026-06-15T11:48:00Z',
  message: null,
};
const offline: Connectivity = {
  accountId: 1,
  online: false,
  lastSuccessAt: '2026-06-15T11:48:00Z',
  message: 'connect ECONNREFUSED',
};

describe('the sidebar sync line', () => {
  it('offline says when it last synced and that the service is unreachable, never just "synced"', () => {
    expect(syncLine(account(), offline, undefined)).toEqual({
      kind: 'unreachable',
      lastSuccessAt: '2026-06-15T11:48:00Z',
      message: 'connect ECONNREFUSED',
    });
    expect(
      syncLine(account({ lastSuccessAt: null }), { ...offline, lastSuccessAt: null }, undefined),
    ).toMatchObject({ kind: 'unreachable', lastSuccessAt: null });
    expect(syncLine(account(), online, undefined)).toEqual({
      kind: 'synced',
      lastSuccessAt: '2026-06-15T11:48:00Z',
    });
  });

  it('before the domain list arrives the first sync is waiting for it, then counts domains', () => {
    const first = { domainsDone: 0, domainsTotal: 0, complete: false };
    expect(syncLine(account({ backfill: first, lastSuccessAt: null }), online, undefined)).toEqual({
      kind: 'waiting_for_list',
    });
    expect(
      syncLine(account({ backfill: first }), online, { domainsDone: 0, domainsTotal: 0, etaSeconds: null }),
    ).toEqual({ kind: 'waiting_for_list' });
    expect(
      syncLine(account({ backfill: first }), online, { domainsDone: 3, domainsTotal: 14, etaSeconds: 40 }),
    ).toEqual({ kind: 'first_sync', done: 3, total: 14, etaSeconds: 40 });
  });

  it('a paused account says why; the rate limit is said while reachable', () => {
    expect(syncLine(account({ state: 'paused', pausedReason: 'token_invalid' }), offline, undefined)).toEqual(
      { kind: 'paused', reason: 'token invalid' },
    );
    expect(syncLine(account({ state: 'rate_limited' }), online, undefined)).toEqual({ kind: 'rate_limited' });
  });
});
