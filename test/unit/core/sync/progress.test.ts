import { describe, expect, it } from 'vitest';
import type { SyncEvent } from '../../../../main/core/sync/events.ts';
import { emitBackfillProgress } from '../../../../main/core/sync/progress.ts';
import type { SyncContext } from '../../../../main/core/sync/syncContext.ts';

type Progress = Extract<SyncEvent, { type: 'progress' }>;
const DAY_S = 86_400;

/** The parts of a SyncContext the progress line reads: a 54-a-minute budget with nothing in hand. */
function context(events: SyncEvent[]): SyncContext {
  return {
    requests: 0,
    syncCapacity: () => 54,
    emit: (e: SyncEvent) => events.push(e),
    o: { accountId: 1, clock: { now: () => 0 }, budget: { available: () => 0 } },
  } as unknown as SyncContext;
}

describe('the backfill progress line', () => {
  it('gives a large portfolio the ETA of its score and history at their room, not at the whole budget', () => {
    // 5,000 domains watched, their 30,000 score and history reads left at 0.54 a minute: ~39 days.
    const events: SyncEvent[] = [];
    const figures = { domainsDone: 0, domainsTotal: 5000, remaining: 30_000, remainingKeep: 30_000 };
    emitBackfillProgress(context(events), figures, 0, 0, 0.54);
    const eta = (events[0] as Progress).etaSeconds!;
    expect(eta / DAY_S).toBeCloseTo(30_000 / 0.54 / 1440, 1);
  });

  it('gives a smaller portfolio the ETA of everything left at the whole budget', () => {
    // 1,000 domains' 6,000 reads at 54 a minute: 111 minutes.
    const events: SyncEvent[] = [];
    const figures = { domainsDone: 0, domainsTotal: 1000, remaining: 6000, remainingKeep: 6000 };
    emitBackfillProgress(context(events), figures, 0, 0, null);
    expect((events[0] as Progress).etaSeconds! / 60).toBeCloseTo(6000 / 54, 0);
  });
});
