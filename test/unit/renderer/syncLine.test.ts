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

  it('once every domain is watched, says how far the history backfill got instead of a first sync that never ends', () => {
    // 1,000 domains: health and failed sources of every one read, the score, DNS changes and histories of
    // 312 (the backfill yields to the alert reads, so this lasts hours to days).
    const backfill = { domainsDone: 312, domainsTotal: 1000, domainsWatched: 1000, complete: false };
    expect(
      syncLine(account({ backfill }), online, { domainsDone: 312, domainsTotal: 1000, etaSeconds: 7200 }),
    ).toEqual({ kind: 'history_backfill', done: 312, total: 1000, etaSeconds: 7200, startsAt: null });
    // Still watching: the first sync counts the domains watched, not the ones whose history is in.
    const watching = { domainsDone: 0, domainsTotal: 1000, domainsWatched: 420, complete: false };
    expect(syncLine(account({ backfill: watching }), online, undefined)).toEqual({
      kind: 'first_sync',
      done: 420,
      total: 1000,
      etaSeconds: null,
    });
  });

  it('a paused account says why; the rate limit is said while reachable', () => {
    expect(syncLine(account({ state: 'paused', pausedReason: 'token_invalid' }), offline, undefined)).toEqual(
      { kind: 'paused', reason: 'token invalid' },
    );
    expect(syncLine(account({ state: 'rate_limited' }), online, undefined)).toEqual({ kind: 'rate_limited' });
  });
});
