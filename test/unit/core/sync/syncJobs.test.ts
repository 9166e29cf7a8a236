import { describe, expect, it } from 'vitest';
import type { MirrorDomain, SyncState } from '../../../../main/core/mirror/types.ts';
import { computeStretch, isDue } from '../../../../main/core/sync/planner.ts';
import { buildJobs, GAP_REPAIR_MS } from '../../../../main/core/sync/syncJobs.ts';
import type { SignalName } from '../../../../main/core/signals/catalog.ts';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-06-15T12:00:00Z');
const domain: MirrorDomain = {
  accountId: 1,
  domainId: 7,
  fqdn: 'acme.example',
  firstSeenAt: '2026-06-01T00:00:00Z',
  lastSeenAt: '2026-06-15T11:00:00Z',
  removedAt: null,
};

function state(signal: SignalName, successAt: number): SyncState {
  const at = new Date(successAt).toISOString();
  return {
    accountId: 1,
    domainId: signal === 'domains' ? null : 7,
    fqdn: signal === 'domains' ? null : 'acme.example',
    signal,
    lastSuccessAt: at,
    lastAttemptAt: at,
    lastError: null,
    consecutiveFailures: 0,
    nextDueAt: null,
    periodSeconds: 0,
  };
}

/** A synced domain whose health was last read `healthAgoMs` ago and everything else an hour ago. */
function states(healthAgoMs: number, historyAt = NOW - 2 * 24 * HOUR): SyncState[] {
  return [
    state('domains', NOW - HOUR),
    state('health', NOW - healthAgoMs),
    state('failed_sources', NOW - HOUR),
    state('dns_changes', NOW - HOUR),
    state('security_score', NOW - HOUR),
    state('health_history', historyAt),
    state('score_history', historyAt),
  ];
}

function dueHistories(input: { states: SyncState[]; now: number; gaps: Map<string, number> }): string[] {
  const jobs = buildJobs({ domains: [domain], ...input });
  const stretch = computeStretch(jobs, 54);
  return jobs
    .filter((j) => j.signal.endsWith('_history') && isDue(j, input.now, stretch.factor))
    .map((j) => j.signal);
}

describe('history derived from the health polls, read only to backfill and repair a gap', () => {
  it('is not read while health is polled: the health snapshots are the history', () => {
    expect(dueHistories({ states: states(HOUR), now: NOW, gaps: new Map() })).toEqual([]);
  });

  it('repairs the gap when health went unread for hours (the app was off), even after health is read again', () => {
    const gaps = new Map<string, number>();
    expect(dueHistories({ states: states(GAP_REPAIR_MS + HOUR), now: NOW, gaps }).sort()).toEqual([
      'health_history',
      'score_history',
    ]);
    // Health is read first (it is an alert signal): the histories are still due until they are read.
    const later = NOW + 60_000;
    const healthRead = states(0).map((s) => (s.signal === 'health' ? state('health', later) : s));
    expect(dueHistories({ states: healthRead, now: later, gaps }).sort()).toEqual([
      'health_history',
      'score_history',
    ]);
    // Once read, the histories wait for their weekly top-up again.
    const repaired = states(0, later + 5_000).map((s) =>
      s.signal === 'health' ? state('health', later) : s,
    );
    expect(dueHistories({ states: repaired, now: later + 10_000, gaps })).toEqual([]);
  });
});
