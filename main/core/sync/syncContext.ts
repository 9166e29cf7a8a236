import type { RateBudget } from '../../../shared/api/rateBudget.ts';
import type { Mirror } from '../mirror/types.ts';
import type { BackoffPolicy } from './backoff.ts';
import type { SyncEvent, SyncEventHandler } from './events.ts';
import type { LooseApi } from './looseApi.ts';
import { AlertRates, plannedShares } from './alertShares.ts';
import { firstDayEndsAt } from './firstDay.ts';
import { JobBook } from './jobBook.ts';
import { computeStretch, type Stretch } from './planner.ts';
import { ALERT_SIGNALS, buildJobs, type SyncJob } from './syncJobs.ts';
import type { HoldTimer } from './writeBatch.ts';

/** Minimal logger; messages never contain the token (errors are scrubbed by the client). */
export interface SyncLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The clock the syncer runs on (tests pass a fake one). */
export interface SyncClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Everything one account's syncer needs. */
export interface AccountSyncerOptions {
  mirror: Mirror;
  accountId: number;
  api: LooseApi;
  /** The account's token bucket; its headroom is what sync leaves for the user's edits. */
  budget: RateBudget;
  /** The budget's sustained rate in requests per minute (50 for the default limit of 60; see budgetShape). */
  ratePerMinute: number;
  clock: SyncClock;
  emit: SyncEventHandler;
  /** Called after every mirror write (deliver notifications). */
  afterWrite: () => Promise<void>;
  logger?: SyncLogger;
  /** Parallel fetches within a tick (default 4). */
  concurrency?: number;
  backoff?: BackoffPolicy;
  /**
   * A manual pass waits out rate limiting for at most this long in total without any fetch getting
   * through, then gives up (default PASS_RATE_LIMIT_PATIENCE_MS).
   */
  maxPassHoldMs?: number;
  /**
   * How long a fetched signal waits for the rest of its run before the run's writes are committed together
   * (default WRITE_HOLD_MS, one tick), and the wall-clock timer that bounds it (tests pass their own).
   */
  writeHold?: { ms?: number; timer?: HoldTimer };
}

/**
 * The account's holds. The failure handling sets them; ticks, passes, refreshes and the status read them;
 * a new token or a manual pass clears them. One object, so every part sees the same hold at once.
 */
export interface SyncHolds {
  /** Until when every job of the account waits (the server's Retry-After after a 429). */
  heldUntil: number;
  /** After a 429 the account fetches one request at a time for a while: the server's limit is lower than ours. */
  serialUntil: number;
  /** When a paused account was last probed (or paused). */
  lastPausedCheck: number;
}

/**
 * What the parts of one account's sync share: the options passed in, the holds, the request count, and
 * the views every part reads fresh from the mirror (the account row, the jobs, the stretch). Listener and
 * delivery failures are contained here so that no part can let them break the sync.
 */
export class SyncContext {
  readonly o: AccountSyncerOptions;
  readonly holds: SyncHolds = { heldUntil: 0, serialUntil: 0, lastPausedCheck: 0 };
  /** HTTP attempts of this account since the syncer was created (wired to the API client's events). */
  requests = 0;
  /** Histories with a gap to repair (syncJobs.ts, hasGap), kept between ticks. */
  readonly historyGaps = new Map<string, number>();
  /** Which alert signals told of changes lately: the alert tier's polls lean towards them (alertShares.ts). */
  readonly alertRates = new AlertRates();
  /** The jobs kept between ticks: a tick plans from what changed (jobBook.ts). */
  readonly book: JobBook;

  constructor(options: AccountSyncerOptions) {
    this.o = options;
    this.book = new JobBook(options.mirror, options.accountId, this.historyGaps);
  }

  /**
   * Each alert signal's share of the alert tier's polls now (alertShares.ts; equal during the account's first
   * day: the caller knows it, a plan reading the account's row once).
   */
  alertShares(now: number, firstDay: boolean) {
    return plannedShares(ALERT_SIGNALS, this.alertRates.counts(now), firstDay);
  }

  /** Whether `now` is within the account's first day. */
  inFirstDay(now: number): boolean {
    const ends = this.firstDayEndsAt();
    return ends !== null && now < ends;
  }

  /** When the account's first day ends (epoch ms), while its alert reads come before its backfill; or null. */
  firstDayEndsAt(): number | null {
    const account = this.account();
    return account === null ? null : firstDayEndsAt(account);
  }

  /** The account's row, read fresh: a pause written by another part shows at once. */
  account() {
    return this.o.mirror.listAccounts().find((a) => a.id === this.o.accountId) ?? null;
  }

  /** Every job of the account, built afresh from the mirror (a pass, the status; ticks use the book). */
  jobs(now: number): SyncJob[] {
    // buildJobs may record or end gap repairs in the map the book shares.
    this.book.gapsChanged();
    return buildJobs({
      domains: this.o.mirror.listDomains(this.o.accountId),
      states: this.o.mirror.getSyncStates(this.o.accountId),
      now,
      gaps: this.historyGaps,
      alertShares: this.alertShares(now, this.inFirstDay(now)),
    });
  }

  /**
   * Requests per minute the sync may spend: the bucket's sustained rate. The headroom is a floor of tokens
   * background calls leave in the bucket, not a rate: sync still gets every token refilled above it.
   */
  syncCapacity(): number {
    return Math.max(1, this.o.ratePerMinute);
  }

  stretch(jobs: SyncJob[]): Stretch {
    return computeStretch(jobs, this.syncCapacity());
  }

  /** Notification delivery after a mirror write; a failure is logged, the sync goes on. */
  async afterWrite(): Promise<void> {
    try {
      await this.o.afterWrite();
    } catch (error) {
      this.o.logger?.error('notification delivery failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  emit(event: SyncEvent): void {
    try {
      this.o.emit(event);
    } catch {
      // A listener must not break the sync.
    }
  }
}
