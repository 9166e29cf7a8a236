import type { SignalName } from '../signals/catalog.ts';
import { DEFAULT_BACKOFF } from './backoff.ts';
import { tickSpendable } from './budgetShape.ts';
import { maybeRecheckPaused } from './failureHandling.ts';
import { DEFAULT_TICK_MS } from './scheduler.ts';
import { JobRunner } from './jobRunner.ts';
import type { LooseApi } from './looseApi.ts';
import { refresh, runPass, type PassResult, type RefreshOptions } from './passRunner.ts';
import { emitBackfillProgress } from './progress.ts';
import { SyncContext, type AccountSyncerOptions } from './syncContext.ts';
import { buildStatus, type AccountSyncStatus } from './syncStatus.ts';

// The syncer's public types live with the part that makes them; the engine, the facade and the CLI keep
// importing them from here.
export type { PassResult, RefreshOptions } from './passRunner.ts';
export type { AccountSyncerOptions, SyncClock, SyncLogger } from './syncContext.ts';
export type { AccountSyncStatus } from './syncStatus.ts';

/** How many times one tick plans again after a run that read the list or outlasted a tick (bounded). */
const MAX_REPLANS = 3;

/**
 * Syncs one account: ticks plan within the budget, passes fetch everything stale now. The work is done by
 * jobRunner (fetch, store, parallelism), failureHandling (holds, pauses, sync errors), passRunner (manual
 * passes, refreshes), progress and syncStatus; this class owns their shared context and makes sure only
 * one tick or pass runs at a time.
 */
export class AccountSyncer {
  private readonly ctx: SyncContext;
  private readonly runner: JobRunner;
  private running: Promise<unknown> | null = null;

  constructor(options: AccountSyncerOptions) {
    this.ctx = new SyncContext(options);
    this.runner = new JobRunner(this.ctx, options.backoff ?? DEFAULT_BACKOFF, options.writeHold);
  }

  /** The account's API client (edits go through it, sharing the budget). */
  get api(): LooseApi {
    return this.ctx.o.api;
  }

  /** Id of the synced account. */
  get accountId(): number {
    return this.ctx.o.accountId;
  }

  /** Counts one HTTP attempt of this account (wired to the API client's events). */
  noteRequest(): void {
    this.ctx.requests += 1;
  }

  /** Requests sent since the syncer was created. */
  get requestsSpent(): number {
    return this.ctx.requests;
  }

  /** Forgets a rate-limit hold and lets paused checks happen at once (new token, user action). */
  resetHolds(): void {
    this.ctx.holds.heldUntil = 0;
    this.ctx.holds.lastPausedCheck = 0;
  }

  /** One scheduler tick: fetch the most urgent due jobs that fit the budget's spendable part. */
  async tick(): Promise<void> {
    if (this.running) return; // a pass or a slow tick is still at work; the next tick will come
    const run = this.tickOnce();
    this.running = run;
    try {
      await run;
    } finally {
      this.running = null;
    }
  }

  private async tickOnce(): Promise<void> {
    const ctx = this.ctx;
    const account = ctx.account();
    if (!account) return;
    const now = ctx.o.clock.now();
    if (account.pausedReason) {
      await maybeRecheckPaused(ctx, account.pausedReason, now);
      return;
    }
    if (ctx.holds.heldUntil > now) return;
    let started = now;
    let listed = await this.planAndRun(now);
    // A tick that read the domain list plans once more: the domains it listed have jobs only now, and the
    // budget it left would otherwise wait for the next tick, where the bucket's burst cap loses its refill
    // (the first sync's first tick knows nothing but the list; 4 of its 5 requests were lost this way).
    // So does a tick that outlasted its 5 s (a slow answer, a change's extra reads): the scheduler skips the
    // next mark, and by the one after it the bucket had refilled past its burst and lost the rest (the sync
    // at 56.3 a minute where 57 was lent). Planning at its end spends that refill while it fits.
    for (let again = 0; again < MAX_REPLANS; again++) {
      const at = ctx.o.clock.now();
      const overran = at - started >= DEFAULT_TICK_MS;
      if (!(listed || overran) || ctx.holds.heldUntil > at) break;
      started = at;
      listed = await this.planAndRun(at);
    }
  }

  /** Plans the most urgent due jobs that fit the budget and runs them; true when the domain list was read. */
  private async planAndRun(now: number): Promise<boolean> {
    const ctx = this.ctx;
    // The book keeps the jobs between ticks: planning costs what changed since the last tick.
    // The account's row is read once a plan: when its first day ends decides both the plan and the ETA.
    const firstDayEnds = ctx.firstDayEndsAt();
    const firstDay = firstDayEnds !== null && now < firstDayEnds;
    const { picked, stretch, allocation } = ctx.book.plan(now, {
      capacityPerMinute: ctx.syncCapacity(),
      spendable: tickSpendable(ctx.o.budget),
      burst: ctx.o.budget.capacity - ctx.o.budget.headroom,
      alertShares: ctx.alertShares(now, firstDay),
      firstDay,
    });
    // The backfill's loan (tierAllocation.ts, BACKFILL_LOAN_SHARE) lasts as long as the backfill.
    ctx.o.budget.lend(allocation?.backfillLoanPerMinute ?? 0);
    if (picked.length === 0) return false;
    const backfill = ctx.book.backfilling();
    const start = ctx.requests;
    const attempted = new Set<string>();
    let listed = false;
    await this.runner.runJobs(
      picked,
      stretch,
      () => undefined,
      (job, result) => {
        if (result.kind !== 'rate_limited') attempted.add(job.key);
        if (job.domainId === null && job.signal === 'domains' && result.kind === 'ok') listed = true;
      },
    );
    if (backfill)
      emitBackfillProgress(
        ctx,
        ctx.book.backfill(attempted, now),
        start,
        now,
        allocation?.keepRoomPerMinute ?? null,
        // Held at no room during the first day: it starts when the day ends (firstDay.ts).
        firstDay && allocation?.keepRoomPerMinute === 0 ? firstDayEnds : null,
      );
    return listed;
  }

  /**
   * "Sync now" and `authwatch sync --once`: fetches the domain list first, then every domain's core signals
   * whatever their age, plus history and opened panels that are stale against their TARGET period. Failing
   * signals are retried too: backoff and scope holds are ignored (the user is asking, and may have fixed the
   * token), and the budget is waited for as needed.
   */
  async runPass(options: { signal?: AbortSignal } = {}): Promise<PassResult> {
    while (this.running) await this.running.catch(() => undefined);
    const run = runPass(this.ctx, this.runner, options.signal);
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = null;
    }
  }

  /**
   * Fetches some signals of one domain (or the account's domain list) right now, e.g. after an edit or when
   * the user opens a domain. On-demand signals become tracked (kept warm at their slow period from now on).
   * Returns the signals fetched; nothing happens while the account is paused or rate-limited.
   */
  async refresh(
    domainId: number | null,
    signals: readonly SignalName[],
    options: RefreshOptions = {},
  ): Promise<SignalName[]> {
    return refresh(this.ctx, this.runner, domainId, signals, options);
  }

  /** Status of the account's sync for displays and the CLI. */
  status(): AccountSyncStatus {
    return buildStatus(this.ctx);
  }
}
