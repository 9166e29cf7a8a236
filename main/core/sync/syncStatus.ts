import type { SignalName } from '../signals/catalog.ts';
import { SIGNAL_DEFINITIONS } from '../signals/registry.ts';
import type { PassError } from './passRunner.ts';
import { backfillRoomPerMinute } from './backfillPromise.ts';
import { effectivePeriodMs, nextDueAt } from './planner.ts';
import { backfillProgress } from './progress.ts';
import type { SyncContext } from './syncContext.ts';

/** Freshness and health of one account, for syncStatus(). */
export interface AccountSyncStatus {
  accountId: number;
  state: 'active' | 'paused' | 'rate_limited';
  pausedReason: string | null;
  rateLimitedUntil: number | null;
  budget: { available: number; capacity: number; headroom: number; ratePerMinute: number };
  /** Requests/minute the targets need, the sync's share of the limit, and the stretch factor (≥ 1). */
  demandPerMinute: number;
  capacityPerMinute: number;
  stretchFactor: number;
  /** Per tracked signal: target and achievable (effective) period in seconds. */
  periods: Partial<Record<SignalName, { targetSeconds: number; effectiveSeconds: number; jobs: number }>>;
  /** What each signal of `periods` watches, in words for people (its definition's). */
  words: Partial<Record<SignalName, string>>;
  /**
   * The first sync (and a new domain's): domains whose every core and history signal was read (done), of
   * those whose alert-bearing reads were (watched); the history backfill fills what the alert reads leave.
   */
  backfill: {
    domainsDone: number;
    domainsTotal: number;
    domainsWatched: number;
    complete: boolean;
    /**
     * While the backfill waits for the account's first day to end (firstDay.ts), when it starts (ISO); null
     * when it does not wait (it runs, or the portfolio's alert reads leave it room at once).
     */
    startsAt: string | null;
  };
  requestsSpent: number;
  lastSuccessAt: string | null;
  nextDueAt: string | null;
  errors: PassError[];
}

/**
 * Builds the account's status from the mirror, the holds and the budget as they are now. Reads only: it
 * may be called at any time, during a tick or a pass.
 */
export function buildStatus(ctx: SyncContext): AccountSyncStatus {
  const now = ctx.o.clock.now();
  const account = ctx.account();
  const jobs = ctx.jobs(now);
  const stretch = ctx.stretch(jobs);
  const heldUntil = ctx.holds.heldUntil;
  const periods: AccountSyncStatus['periods'] = {};
  const words: AccountSyncStatus['words'] = {};
  for (const job of jobs) {
    words[job.signal] ??= SIGNAL_DEFINITIONS[job.signal].words;
    const entry = (periods[job.signal] ??= {
      targetSeconds: Math.round(job.targetPeriodMs / 1000),
      effectiveSeconds: Math.round(effectivePeriodMs(job, stretch.factor) / 1000),
      jobs: 0,
    });
    entry.jobs += 1;
  }
  const budget = ctx.o.budget.snapshot();
  const successes = jobs.map((j) => j.state?.lastSuccessAt).filter((s): s is string => !!s);
  const next = nextDueAt(jobs, stretch.factor);
  const progress = backfillProgress(jobs);
  // Before the domain list has arrived there is nothing to count: "0 of 0 domains" is not a finished sync.
  const listed = jobs.some((j) => j.signal === 'domains' && j.domainId === null && j.state?.lastSuccessAt);
  const complete = listed && progress.domainsDone === progress.domainsTotal;
  return {
    accountId: ctx.o.accountId,
    state: account?.pausedReason ? 'paused' : heldUntil > now ? 'rate_limited' : 'active',
    pausedReason: account?.pausedReason ?? null,
    rateLimitedUntil: heldUntil > now ? heldUntil : null,
    budget: {
      available: budget.available,
      capacity: budget.capacity,
      headroom: budget.headroom,
      ratePerMinute: ctx.o.ratePerMinute,
    },
    demandPerMinute: round2(stretch.demandPerMinute),
    capacityPerMinute: stretch.capacityPerMinute,
    stretchFactor: round2(stretch.factor),
    periods,
    words,
    backfill: { ...progress, complete, startsAt: complete ? null : backfillStartsAt(ctx, progress, now) },
    requestsSpent: ctx.requests,
    lastSuccessAt: successes.length ? successes.reduce((a, b) => (a > b ? a : b)) : null,
    nextDueAt: next === null ? null : new Date(Math.max(next, now)).toISOString(),
    errors: jobs
      .filter((job) => job.state?.lastError && job.state.consecutiveFailures > 0)
      .map((job) => ({
        domainId: job.domainId,
        fqdn: job.fqdn,
        signal: job.signal,
        code: job.state!.lastError!.code,
        message: job.state!.lastError!.message,
        missingScope: job.state!.lastError!.missingScope,
      })),
  };
}

/** When a backfill that waits for the first day starts (ISO), else null: the same rule as the allocation's. */
function backfillStartsAt(ctx: SyncContext, progress: { domainsTotal: number }, now: number): string | null {
  const endsAt = ctx.firstDayEndsAt();
  if (endsAt === null || now >= endsAt || progress.domainsTotal === 0) return null;
  if (backfillRoomPerMinute(progress.domainsTotal, ctx.syncCapacity()) === null) return null;
  return new Date(endsAt).toISOString();
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
