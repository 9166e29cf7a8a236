import { isApiError } from '../../../shared/api/apiError.ts';
import type { BudgetPriority, RateBudget } from '../../../shared/api/rateBudget.ts';
import type { Mirror } from '../mirror/types.ts';
import { SIGNALS, type SignalName } from '../signals/catalog.ts';
import { backoffDelayMs, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.ts';
import type { SyncEvent, SyncEventHandler } from './events.ts';
import {
  accountBlockText,
  classifyFailure,
  PASS_RATE_LIMIT_PATIENCE_MS,
  type AccountBlockReason,
  type FailureOutcome,
} from './failurePolicy.ts';
import type { LooseApi } from './looseApi.ts';
import {
  compareUrgency,
  computeStretch,
  effectivePeriodMs,
  isDue,
  nextDueAt,
  planTick,
  type Stretch,
} from './planner.ts';
import { fetchSignal, INCREMENTAL } from './signalFetcher.ts';
import {
  buildJobs,
  CORE_SIGNALS,
  HISTORY_SIGNALS,
  jobKey,
  ON_DEMAND_SIGNALS,
  SCOPE_RECHECK_MS,
  type SyncJob,
} from './syncJobs.ts';

/** Paused for plan or access reasons, the account is re-checked hourly with GET /auth/me (1 request). */
export const PAUSED_RECHECK_MS = 3_600_000;
/** How long after a rate-limit hold fetches stay one at a time (parallel calls would all be refused). */
export const SERIAL_AFTER_429_MS = 5 * 60_000;

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
}

/** Options of refresh(). */
export interface RefreshOptions {
  /** Only signals older than this are fetched (default: all of them). */
  staleAfterMs?: number;
  /** 'foreground' right after the user's edit (may use the headroom), else 'background'. */
  priority?: BudgetPriority;
}

/** One failed job, as a pass reports it. */
export interface PassError {
  domainId: number | null;
  fqdn: string | null;
  signal: SignalName;
  code: string;
  message: string;
  missingScope?: string | null;
}

/** What a pass (sync now / sync --once) did. */
export interface PassResult {
  accountId: number;
  fetched: number;
  failed: number;
  requestsSpent: number;
  errors: PassError[];
  /** Set when the account is paused (the pass stopped). */
  paused: AccountBlockReason | null;
  /** Set when the pass gave up waiting for the rate limit. */
  rateLimitedUntil: number | null;
  /**
   * Jobs the pass should have fetched but did not (it stopped: paused, rate limited, cancelled). Never
   * counted as fetched: a pass that holds anything back did not sync everything.
   */
  heldBack: { domainId: number | null; fqdn: string | null; signal: SignalName }[];
}

/** How one job of a run ended: stored, its domain left the account's list, or a failure. */
type JobResult = { kind: 'ok' } | { kind: 'domain_gone' } | FailureOutcome;

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
  backfill: { domainsDone: number; domainsTotal: number; complete: boolean };
  requestsSpent: number;
  lastSuccessAt: string | null;
  nextDueAt: string | null;
  errors: PassError[];
}

/** Syncs one account: ticks plan within the budget, passes fetch everything stale now. */
export class AccountSyncer {
  private readonly o: AccountSyncerOptions;
  private readonly backoff: BackoffPolicy;
  private heldUntil = 0;
  /** After a 429 the account fetches one request at a time for a while: the server's limit is lower than ours. */
  private serialUntil = 0;
  private lastPausedCheck = 0;
  private running: Promise<unknown> | null = null;
  /** A domain-list fetch started after a 404, shared by the jobs that met one meanwhile. */
  private listRefresh: Promise<void> | null = null;
  private requests = 0;

  constructor(options: AccountSyncerOptions) {
    this.o = options;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  /** The account's API client (edits go through it, sharing the budget). */
  get api(): LooseApi {
    return this.o.api;
  }

  /** Id of the synced account. */
  get accountId(): number {
    return this.o.accountId;
  }

  /** Counts one HTTP attempt of this account (wired to the API client's events). */
  noteRequest(): void {
    this.requests += 1;
  }

  /** Requests sent since the syncer was created. */
  get requestsSpent(): number {
    return this.requests;
  }

  /** Forgets a rate-limit hold and lets paused checks happen at once (new token, user action). */
  resetHolds(): void {
    this.heldUntil = 0;
    this.lastPausedCheck = 0;
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
    const account = this.account();
    if (!account) return;
    const now = this.o.clock.now();
    if (account.pausedReason) {
      await this.maybeRecheckPaused(account.pausedReason, now);
      return;
    }
    if (this.heldUntil > now) return;
    const jobs = this.jobs(now);
    const stretch = this.stretch(jobs);
    const spendable = this.o.budget.available({ priority: 'background' });
    const burst = this.o.budget.capacity - this.o.budget.headroom;
    const picked = planTick(jobs, { now, spendable, factor: stretch.factor, burst }) as SyncJob[];
    if (picked.length === 0) return;
    const backfill = this.isBackfilling(jobs);
    const start = this.requests;
    await this.runJobs(picked, stretch, () => {
      if (backfill) this.emitProgress('backfill', start, now);
    });
  }

  /**
   * "Sync now" and `authwatch sync --once`: fetches the domain list first, then every domain's core signals
   * whatever their age, plus history and opened panels that are stale against their TARGET period. Failing
   * signals are retried too: backoff and scope holds are ignored (the user is asking, and may have fixed the
   * token), and the budget is waited for as needed.
   */
  async runPass(options: { signal?: AbortSignal } = {}): Promise<PassResult> {
    while (this.running) await this.running.catch(() => undefined);
    const run = this.passOnce(options.signal);
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = null;
    }
  }

  private async passOnce(abort?: AbortSignal): Promise<PassResult> {
    const start = this.requests;
    const startedAt = this.o.clock.now();
    const result: PassResult = {
      accountId: this.o.accountId,
      fetched: 0,
      failed: 0,
      requestsSpent: 0,
      errors: [],
      paused: null,
      rateLimitedUntil: null,
      heldBack: [],
    };
    const attempted = new Set<string>();
    const patience = this.o.maxPassHoldMs ?? PASS_RATE_LIMIT_PATIENCE_MS;
    // When a fetch last got through (or the pass began). Each rate-limit hold alone may be short (a 429
    // without Retry-After holds a minute), so the pass is bounded by the time since then, waits in the API
    // client included: a server that refuses everything ends the pass, a slow one does not.
    let progressAt = startedAt;
    // A manual pass is the user asking: a paused account is tried again (one request tells).
    const account = this.account();
    if (account?.pausedReason) this.o.mirror.setAccountPaused(this.o.accountId, null);
    this.heldUntil = 0;

    for (;;) {
      if (abort?.aborted) break;
      const now = this.o.clock.now();
      if (this.heldUntil > now) {
        if (this.heldUntil - progressAt > patience) {
          result.rateLimitedUntil = this.heldUntil;
          break;
        }
        await this.o.clock.sleep(this.heldUntil - now, abort).catch(() => undefined);
        continue;
      }
      const all = this.jobs(now);
      const due = all.filter((job) => !attempted.has(job.key) && inPass(job, now));
      if (due.length === 0) break;
      due.sort((a, b) => compareUrgency(a, b, now, 1));
      // The domain list first, alone, whatever its age: it decides which domains the rest of the pass covers
      // (a domain deleted on the service must not be asked for).
      const list = due.find((job) => job.signal === 'domains');
      const batch = list ? [list] : due;
      const stretch = this.stretch(all);
      const outcome = await this.runJobs(
        batch,
        stretch,
        () => this.emitProgress('pass', start, startedAt, attempted),
        (job, done) => {
          if (done.kind === 'rate_limited') return; // waited out, then fetched again
          attempted.add(job.key);
          if (done.kind === 'ok') {
            result.fetched += 1;
            progressAt = this.o.clock.now();
          } else if (done.kind !== 'domain_gone') {
            result.failed += 1;
            result.errors.push(passError(job, done));
          }
        },
        abort,
      );
      if (outcome === 'paused') {
        result.paused = (this.account()?.pausedReason as AccountBlockReason | null) ?? 'token_invalid';
        break;
      }
    }
    if (result.paused || result.rateLimitedUntil !== null || abort?.aborted) {
      const now = this.o.clock.now();
      result.heldBack = this.jobs(now)
        .filter((job) => !attempted.has(job.key) && inPass(job, now))
        .map((job) => ({ domainId: job.domainId, fqdn: job.fqdn, signal: job.signal }));
    }
    result.requestsSpent = this.requests - start;
    return result;
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
    const account = this.account();
    const now = this.o.clock.now();
    if (!account || account.pausedReason || this.heldUntil > now) return [];
    const known = new Set(
      this.o.mirror.getSyncStates(this.o.accountId).map((s) => jobKey(s.domainId, s.signal)),
    );
    if (domainId !== null) {
      for (const signal of signals) {
        if (ON_DEMAND_SIGNALS.includes(signal) && !known.has(jobKey(domainId, signal))) {
          this.o.mirror.setNextDue({
            accountId: this.o.accountId,
            domainId,
            signal,
            nextDueAt: now,
            periodSeconds: SIGNALS[signal].periodSeconds,
          });
        }
      }
    }
    const all = this.jobs(now);
    const stretch = this.stretch(all);
    const staleAfter = options.staleAfterMs;
    const picked = all.filter(
      (job) =>
        job.domainId === domainId &&
        signals.includes(job.signal) &&
        !job.stopped &&
        (staleAfter === undefined || job.lastSuccessAt === null || now - job.lastSuccessAt >= staleAfter),
    );
    if (picked.length === 0) return [];
    await this.runJobs(picked, stretch, () => undefined, undefined, undefined, options.priority);
    return picked.map((job) => job.signal);
  }

  /** Status of the account's sync for displays and the CLI. */
  status(): AccountSyncStatus {
    const now = this.o.clock.now();
    const account = this.account();
    const jobs = this.jobs(now);
    const stretch = this.stretch(jobs);
    const periods: AccountSyncStatus['periods'] = {};
    for (const job of jobs) {
      const entry = (periods[job.signal] ??= {
        targetSeconds: Math.round(job.targetPeriodMs / 1000),
        effectiveSeconds: Math.round(effectivePeriodMs(job, stretch.factor) / 1000),
        jobs: 0,
      });
      entry.jobs += 1;
    }
    const budget = this.o.budget.snapshot();
    const successes = jobs.map((j) => j.state?.lastSuccessAt).filter((s): s is string => !!s);
    const next = nextDueAt(jobs, stretch.factor);
    const progress = this.backfillProgress(jobs);
    return {
      accountId: this.o.accountId,
      state: account?.pausedReason ? 'paused' : this.heldUntil > now ? 'rate_limited' : 'active',
      pausedReason: account?.pausedReason ?? null,
      rateLimitedUntil: this.heldUntil > now ? this.heldUntil : null,
      budget: {
        available: budget.available,
        capacity: budget.capacity,
        headroom: budget.headroom,
        ratePerMinute: this.o.ratePerMinute,
      },
      demandPerMinute: round2(stretch.demandPerMinute),
      capacityPerMinute: stretch.capacityPerMinute,
      stretchFactor: round2(stretch.factor),
      periods,
      backfill: { ...progress, complete: progress.domainsDone === progress.domainsTotal },
      requestsSpent: this.requests,
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

  private account() {
    return this.o.mirror.listAccounts().find((a) => a.id === this.o.accountId) ?? null;
  }

  private jobs(now: number): SyncJob[] {
    return buildJobs({
      domains: this.o.mirror.listDomains(this.o.accountId),
      states: this.o.mirror.getSyncStates(this.o.accountId),
      now,
    });
  }

  /**
   * Requests per minute the sync may spend: the bucket's sustained rate. The headroom is a floor of tokens
   * background calls leave in the bucket, not a rate: sync still gets every token refilled above it.
   */
  private syncCapacity(): number {
    return Math.max(1, this.o.ratePerMinute);
  }

  private stretch(jobs: SyncJob[]): Stretch {
    return computeStretch(jobs, this.syncCapacity());
  }

  private isBackfilling(jobs: SyncJob[]): boolean {
    const p = this.backfillProgress(jobs);
    return (
      p.domainsDone < p.domainsTotal || jobs.some((j) => j.signal === 'domains' && !j.state?.lastAttemptAt)
    );
  }

  /** A domain is backfilled once each of its core and history signals was attempted. */
  private backfillProgress(jobs: SyncJob[]): { domainsDone: number; domainsTotal: number } {
    const pending = new Set<number>();
    const all = new Set<number>();
    for (const job of jobs) {
      if (
        job.domainId === null ||
        !(CORE_SIGNALS.includes(job.signal) || HISTORY_SIGNALS.includes(job.signal))
      )
        continue;
      all.add(job.domainId);
      if (!job.state?.lastAttemptAt) pending.add(job.domainId);
    }
    return { domainsDone: all.size - pending.size, domainsTotal: all.size };
  }

  /**
   * Reports progress: domains done/total, requests spent and an ETA made of the wait for the rate budget
   * plus the time requests have taken so far. In a pass, "done" means nothing due is left for the domain.
   */
  private emitProgress(
    phase: 'backfill' | 'pass',
    startRequests: number,
    startedAt: number,
    attempted?: Set<string>,
  ): void {
    const now = this.o.clock.now();
    const jobs = this.jobs(now);
    let left: SyncJob[];
    let domainsDone: number;
    let domainsTotal: number;
    if (phase === 'backfill') {
      left = jobs.filter((j) => !j.state?.lastAttemptAt && !j.stopped);
      ({ domainsDone, domainsTotal } = this.backfillProgress(jobs));
    } else {
      left = jobs.filter((j) => !attempted?.has(j.key) && inPass(j, now));
      const domains = new Set(jobs.filter((j) => j.domainId !== null).map((j) => j.domainId));
      const pending = new Set(left.map((j) => j.domainId));
      domainsTotal = domains.size;
      domainsDone = [...domains].filter((d) => !pending.has(d)).length;
    }
    const remaining = left.reduce((n, j) => n + j.cost, 0);
    const spent = this.requests - startRequests;
    const budgetWait =
      (Math.max(0, remaining - this.o.budget.available({ priority: 'background' })) / this.syncCapacity()) *
      60;
    const perRequest = spent > 0 ? (now - startedAt) / 1000 / spent : 0;
    const width = Math.max(1, this.o.concurrency ?? 4);
    this.emit({
      type: 'progress',
      accountId: this.o.accountId,
      phase,
      domainsDone,
      domainsTotal,
      requestsSpent: spent,
      etaSeconds: Math.round(budgetWait + (perRequest * remaining) / width),
    });
  }

  /**
   * Runs jobs with bounded parallelism. Stops launching new ones when the account gets paused or held
   * by the rate limit. Returns 'paused', 'held' or 'done'.
   */
  private async runJobs(
    jobs: SyncJob[],
    stretch: Stretch,
    afterEach: () => void,
    report?: (job: SyncJob, result: JobResult) => void,
    abort?: AbortSignal,
    priority: BudgetPriority = 'background',
  ): Promise<'paused' | 'held' | 'done'> {
    let stop: 'paused' | 'held' | null = null;
    let next = 0;
    const worker = async () => {
      while (stop === null && next < jobs.length && !abort?.aborted) {
        const job = jobs[next++]!;
        const outcome = await this.runJob(job, stretch, priority);
        report?.(job, outcome);
        if (outcome.kind === 'account_blocked') stop = 'paused';
        else if (outcome.kind === 'rate_limited') stop ??= 'held';
        afterEach();
      }
    };
    const serial = this.o.clock.now() < this.serialUntil;
    const width = serial ? 1 : Math.max(1, Math.min(this.o.concurrency ?? 4, jobs.length));
    await Promise.all(Array.from({ length: width }, worker));
    return stop ?? 'done';
  }

  /** Fetches and stores one job; returns how it ended. Never throws. */
  private async runJob(job: SyncJob, stretch: Stretch, priority: BudgetPriority): Promise<JobResult> {
    const { mirror, accountId } = this.o;
    const startedAt = this.o.clock.now();
    try {
      const lastSeen = INCREMENTAL.has(job.signal)
        ? mirror.lastSeen(accountId, job.signal, job.domainId)
        : null;
      const fetched = await fetchSignal(job.signal, {
        api: this.o.api,
        domainId: job.domainId,
        fqdn: job.fqdn,
        now: startedAt,
        lastSeen,
        priority,
      });
      const fetchedAt = this.o.clock.now();
      const written = mirror.writeSignal({
        accountId,
        domainId: job.domainId,
        signal: job.signal,
        payload: fetched.payload,
        fetchedAt,
        ...(fetched.window ? { window: fetched.window } : {}),
        nextDueAt: fetchedAt + effectivePeriodMs(job, stretch.factor),
      } as Parameters<Mirror['writeSignal']>[0]);
      this.emit({ type: 'changed', accountId, domainId: job.domainId, signal: job.signal });
      if (written.alerts.length || written.resolved.length) await this.afterWrite();
      return { kind: 'ok' };
    } catch (error) {
      if (job.domainId !== null && isApiError(error) && error.status === 404) {
        if (await this.leftTheList(job.domainId, startedAt, priority)) return { kind: 'domain_gone' };
      }
      return this.handleFailure(job, error, startedAt);
    }
  }

  /**
   * After a 404 on a domain: whether the domain is no longer in the account's list (deleted on the service).
   * The list is fetched again unless it was stored after the failed call started; concurrent 404s share
   * one fetch. Such a 404 is the service agreeing the domain is gone, not a failure of the signal.
   */
  private async leftTheList(domainId: number, since: number, priority: BudgetPriority): Promise<boolean> {
    const listedSince = () => {
      const at = this.o.mirror
        .getSyncStates(this.o.accountId)
        .find((s) => s.domainId === null && s.signal === 'domains')?.lastSuccessAt;
      return at !== undefined && at !== null && Date.parse(at) >= since;
    };
    if (!listedSince()) {
      this.listRefresh ??= (async () => {
        const now = this.o.clock.now();
        const all = this.jobs(now);
        const list = all.find((job) => job.signal === 'domains');
        if (list) await this.runJob(list, this.stretch(all), priority);
      })().finally(() => {
        this.listRefresh = null;
      });
      await this.listRefresh;
    }
    const domain = this.o.mirror
      .listDomains(this.o.accountId, { includeRemoved: true })
      .find((d) => d.domainId === domainId);
    return domain !== undefined && domain.removedAt !== null;
  }

  private async handleFailure(job: SyncJob, error: unknown, at: number): Promise<FailureOutcome> {
    const { mirror, accountId } = this.o;
    const meta = SIGNALS[job.signal];
    const outcome = classifyFailure(error, { method: 'GET', pathTemplate: meta.path });
    const requestId = (error as { requestId?: unknown })?.requestId;
    const base = {
      status: (error as { status?: unknown })?.status as number,
      code: outcome.code,
      message: outcome.message,
      requestId: typeof requestId === 'string' ? requestId : '',
    };
    if (typeof base.status !== 'number') base.status = 0;
    const subject = { accountId, domainId: job.domainId, signal: job.signal };
    const syncError: SyncEvent = { type: 'sync_error', ...subject, code: base.code, message: base.message };
    try {
      switch (outcome.kind) {
        case 'rate_limited': {
          // Nothing is wrong with the signal: the token's budget is spent. The transport already penalized
          // the bucket on a 429; hold every job of the account until the server's Retry-After.
          this.heldUntil = Math.max(this.heldUntil, at + outcome.retryAfterMs);
          this.serialUntil = Math.max(this.serialUntil, this.heldUntil + SERIAL_AFTER_429_MS);
          this.emit({ type: 'rate_limited', accountId, until: this.heldUntil });
          break;
        }
        case 'account_blocked': {
          const account = this.account();
          const label = account?.label ?? `account ${accountId}`;
          if (!account?.pausedReason) {
            mirror.setAccountPaused(accountId, outcome.reason);
            const kind =
              outcome.reason === 'api_plan_not_eligible'
                ? 'plan_not_eligible'
                : outcome.reason === 'api_access_disabled'
                  ? 'api_access_disabled'
                  : 'token_invalid';
            // The mirror words the alert; a missing token has no server message, so ours explains it.
            const message =
              outcome.reason === 'token_missing'
                ? accountBlockText('token_missing', label).body
                : outcome.message;
            mirror.raiseAccountAlert({ accountId, kind, message, at });
            this.o.logger?.warn('account paused', { accountId, reason: outcome.reason });
            this.emit({
              type: 'account_paused',
              accountId,
              reason: outcome.reason,
              message: outcome.message,
            });
            await this.afterWrite();
          }
          this.lastPausedCheck = at;
          break;
        }
        case 'scope_missing': {
          mirror.recordSyncError({
            ...subject,
            error: { ...base, retryable: false, missingScope: outcome.scope },
            at,
            nextDueAt: at + SCOPE_RECHECK_MS,
          });
          this.emit(syncError);
          await this.afterWrite();
          break;
        }
        case 'signal_failed': {
          const failures = (job.state?.consecutiveFailures ?? 0) + 1;
          mirror.recordSyncError({
            ...subject,
            error: { ...base, status: outcome.status, retryable: true },
            at,
            nextDueAt: at + backoffDelayMs(failures, this.backoff),
          });
          this.o.logger?.warn('signal fetch failed', { ...subject, code: base.code });
          this.emit(syncError);
          break;
        }
      }
    } catch (storeError) {
      // The mirror refused (e.g. the domain vanished meanwhile): log it, never crash the sync.
      this.o.logger?.error('could not record a sync failure', {
        accountId,
        signal: job.signal,
        error: storeError instanceof Error ? storeError.message : String(storeError),
      });
    }
    return outcome;
  }

  /** Paused for plan or access reasons, the account is probed hourly; success resumes it. */
  private async maybeRecheckPaused(reason: string, now: number): Promise<void> {
    if (reason === 'token_invalid' || reason === 'token_missing') return; // only a new token helps
    if (now - this.lastPausedCheck < PAUSED_RECHECK_MS) return;
    this.lastPausedCheck = now;
    try {
      await this.o.api.get('/auth/me', { priority: 'background' });
      this.o.mirror.setAccountPaused(this.o.accountId, null);
      this.o.logger?.info('account resumed', { accountId: this.o.accountId });
    } catch {
      // Still blocked; the open account alert says why.
    }
  }

  private async afterWrite(): Promise<void> {
    try {
      await this.o.afterWrite();
    } catch (error) {
      this.o.logger?.error('notification delivery failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private emit(event: SyncEvent): void {
    try {
      this.o.emit(event);
    } catch {
      // A listener must not break the sync.
    }
  }
}

/**
 * Whether a manual pass fetches the job: always for the domain list and core signals, else when stale
 * against its target period. Holds (error backoff, a missing scope) do not apply: the user is asking now.
 */
function inPass(job: SyncJob, now: number): boolean {
  if (job.signal === 'domains' || CORE_SIGNALS.includes(job.signal)) return true;
  return isDue({ ...job, notBefore: null, stopped: false }, now, 1);
}

function passError(job: SyncJob, outcome: FailureOutcome): PassError {
  return {
    domainId: job.domainId,
    fqdn: job.fqdn,
    signal: job.signal,
    code: outcome.code,
    message: outcome.message,
    ...(outcome.kind === 'scope_missing' ? { missingScope: outcome.scope } : {}),
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
