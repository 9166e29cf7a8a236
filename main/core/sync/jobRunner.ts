import { isApiError } from '../../../shared/api/apiError.ts';
import type { BudgetPriority } from '../../../shared/api/rateBudget.ts';
import type { Alert, WriteSignalInput } from '../mirror/types.ts';
import type { BackoffPolicy } from './backoff.ts';
import { handleFailure } from './failureHandling.ts';
import type { FailureOutcome } from './failurePolicy.ts';
import { effectivePeriodMs, type Stretch } from './planner.ts';
import { fetchSignal, incrementalStart } from './signalFetcher.ts';
import type { SyncContext } from './syncContext.ts';
import { DEFAULT_TICK_MS } from './scheduler.ts';
import { jobKey, keptPeriodMs, tierOf, type SyncJob } from './syncJobs.ts';
import { WriteBatch, type HoldTimer, type PendingWrite } from './writeBatch.ts';

/**
 * Health told of a record removed or restored: the domain's DNS changes (otherwise read weekly, see
 * KEPT_PERIOD_MS) are fetched at once, so the alert's domain shows the record before and after.
 */
function recordChanged(job: SyncJob, alerts: readonly Alert[]): boolean {
  return (
    job.signal === 'health' &&
    job.domainId !== null &&
    alerts.some((a) => a.rule === 'protocol_disconnected' || a.rule === 'protocol_restored')
  );
}

/** The DNS-changes job of a health job's domain, kept at its own period from now on. */
function dnsChangesOf(health: SyncJob): SyncJob {
  const period = keptPeriodMs('dns_changes');
  return {
    ...health,
    key: jobKey(health.domainId, 'dns_changes'),
    signal: 'dns_changes',
    state: null,
    tier: tierOf('dns_changes'),
    targetPeriodMs: period,
    periodMs: period,
  };
}

/** How one job of a run ended: stored, its domain left the account's list, or a failure. */
export type JobResult = { kind: 'ok' } | { kind: 'domain_gone' } | FailureOutcome;

/**
 * How long a fetched signal may wait for the other fetches of its run before it is committed: one tick.
 * A tick's fetches settle well within it, so in practice a tick commits once, when its last fetch is in.
 */
export const WRITE_HOLD_MS = DEFAULT_TICK_MS;

/** A fetch that got its answer (waiting in the run's batch) or a job that already ended. */
type Fetched = { kind: 'fetched'; write: PendingWrite } | JobResult;

/**
 * Fetches and stores jobs for ticks, passes and refreshes alike, so that all three obey the same holds and
 * parallelism and word failures the same way. A run's fetched signals are stored together, in one
 * transaction (writeBatch.ts): one commit per tick instead of one per signal. Holds the one piece of state
 * a run shares across its jobs: the domain-list fetch started after a 404.
 */
export class JobRunner {
  private readonly ctx: SyncContext;
  private readonly backoff: BackoffPolicy;
  private readonly holdMs: number;
  private readonly holdTimer: HoldTimer | undefined;
  /** A domain-list fetch started after a 404, shared by the jobs that met one meanwhile. */
  private listRefresh: Promise<void> | null = null;

  constructor(ctx: SyncContext, backoff: BackoffPolicy, hold: { ms?: number; timer?: HoldTimer } = {}) {
    this.ctx = ctx;
    this.backoff = backoff;
    this.holdMs = hold.ms ?? WRITE_HOLD_MS;
    this.holdTimer = hold.timer;
  }

  /**
   * Runs jobs with bounded parallelism. Stops launching new ones when the account gets paused or held
   * by the rate limit. Returns 'paused', 'held' or 'done' once every fetched signal is committed.
   */
  async runJobs(
    jobs: SyncJob[],
    stretch: Stretch,
    afterEach: () => void,
    report?: (job: SyncJob, result: JobResult) => void,
    abort?: AbortSignal,
    priority: BudgetPriority = 'background',
  ): Promise<'paused' | 'held' | 'done'> {
    let stop: 'paused' | 'held' | null = null;
    const queue = [...jobs];
    let next = 0;
    const ended = (job: SyncJob, outcome: JobResult) => {
      report?.(job, outcome);
      if (outcome.kind === 'account_blocked') stop = 'paused';
      else if (outcome.kind === 'rate_limited') stop ??= 'held';
      afterEach();
    };
    // Commits in flight (the hold timer may start one while fetches go on); the run waits for them all.
    const commits = new Set<Promise<void>>();
    const commit = () => {
      const run = this.commit(batch, ended).then((followUps) => void queue.push(...followUps));
      commits.add(run);
      void run.finally(() => commits.delete(run));
      return run;
    };
    const batch = new WriteBatch(this.ctx.o.mirror, this.holdMs, () => void commit(), this.holdTimer);
    const worker = async () => {
      while (stop === null && next < queue.length && !abort?.aborted) {
        const job = queue[next++]!;
        const fetched = await this.fetchJob(job, stretch, priority);
        if (fetched.kind === 'fetched') batch.add(fetched.write);
        else ended(job, fetched);
        // A long run (a manual pass) commits what waited long enough on the sync's clock as well.
        if (batch.overdue(this.ctx.o.clock.now())) await commit();
      }
    };
    for (;;) {
      const serial = this.ctx.o.clock.now() < this.ctx.holds.serialUntil;
      const left = queue.length - next;
      const width = serial ? 1 : Math.max(1, Math.min(this.ctx.o.concurrency ?? 4, left));
      await Promise.all(Array.from({ length: width }, worker));
      await commit();
      while (commits.size > 0) await Promise.all([...commits]);
      // Follow-ups the commit queued (a record changed: its DNS changes) run as one more round.
      if (stop !== null || next >= queue.length || abort?.aborted) break;
    }
    return stop ?? 'done';
  }

  /** Fetches one job; a fetched signal is returned for the run's batch. Never throws. */
  private async fetchJob(job: SyncJob, stretch: Stretch, priority: BudgetPriority): Promise<Fetched> {
    const ctx = this.ctx;
    const { mirror, accountId } = ctx.o;
    const startedAt = ctx.o.clock.now();
    try {
      const lastSeen = incrementalStart(job.signal, job.lastSuccessAt, () =>
        mirror.lastSeen(accountId, job.signal, job.domainId),
      );
      const fetched = await fetchSignal(job.signal, {
        api: ctx.o.api,
        domainId: job.domainId,
        fqdn: job.fqdn,
        now: startedAt,
        lastSeen,
        priority,
      });
      const fetchedAt = ctx.o.clock.now();
      const input = {
        accountId,
        domainId: job.domainId,
        signal: job.signal,
        payload: fetched.payload,
        fetchedAt,
        ...(fetched.window ? { window: fetched.window } : {}),
        ...(fetched.skipped ? { skipped: fetched.skipped } : {}),
        nextDueAt: fetchedAt + effectivePeriodMs(job, stretch.factor),
      } as WriteSignalInput;
      return { kind: 'fetched', write: { job, input, startedAt, fetchedAt } };
    } catch (error) {
      if (job.domainId !== null && isApiError(error) && error.status === 404) {
        if (await this.leftTheList(job.domainId, startedAt, priority)) return { kind: 'domain_gone' };
      }
      return handleFailure(ctx, this.backoff, job, error, startedAt);
    }
  }

  /**
   * Commits the batch and acts on each write after the commit (never before: a batch whose commit fails
   * stored nothing): tells listeners, notes which alert signals told of changes, delivers the alerts once
   * for the whole batch, records a write the mirror refused as the signal's failure. Returns the follow-up
   * jobs (a record removed or restored: the domain's DNS changes).
   */
  private async commit(
    batch: WriteBatch,
    ended: (job: SyncJob, outcome: JobResult) => void,
  ): Promise<SyncJob[]> {
    const ctx = this.ctx;
    const { accountId } = ctx.o;
    const stored = batch.commit();
    const followUps: SyncJob[] = [];
    const outcomes: [SyncJob, JobResult][] = [];
    let alerted = false;
    for (const write of stored) {
      const { job, startedAt, fetchedAt } = write.pending;
      if ('error' in write) {
        outcomes.push([job, await handleFailure(ctx, this.backoff, job, write.error, startedAt)]);
        continue;
      }
      ctx.emit({ type: 'changed', accountId, domainId: job.domainId, signal: job.signal });
      if (write.result.alerts.length || write.result.resolved.length) {
        alerted = true;
        if (job.tier === 'alert') ctx.alertRates.record(job.signal, fetchedAt);
      }
      if (recordChanged(job, write.result.alerts)) followUps.push(dnsChangesOf(job));
      outcomes.push([job, { kind: 'ok' }]);
    }
    if (alerted) await ctx.afterWrite();
    for (const [job, outcome] of outcomes) ended(job, outcome);
    return followUps;
  }

  /**
   * After a 404 on a domain: whether the domain is no longer in the account's list (deleted on the service).
   * The list is fetched again unless it was stored after the failed call started; concurrent 404s share
   * one fetch. Such a 404 is the service agreeing the domain is gone, not a failure of the signal.
   */
  private async leftTheList(domainId: number, since: number, priority: BudgetPriority): Promise<boolean> {
    const { mirror, accountId } = this.ctx.o;
    const listedSince = () => {
      const at = mirror
        .getSyncStates(accountId)
        .find((s) => s.domainId === null && s.signal === 'domains')?.lastSuccessAt;
      return at !== undefined && at !== null && Date.parse(at) >= since;
    };
    if (!listedSince()) {
      this.listRefresh ??= (async () => {
        const now = this.ctx.o.clock.now();
        const all = this.ctx.jobs(now);
        const list = all.find((job) => job.signal === 'domains');
        // Its own run: the list is committed before the 404's domain is looked up in it.
        if (list)
          await this.runJobs([list], this.ctx.stretch(all), () => undefined, undefined, undefined, priority);
      })().finally(() => {
        this.listRefresh = null;
      });
      await this.listRefresh;
    }
    const domain = mirror
      .listDomains(accountId, { includeRemoved: true })
      .find((d) => d.domainId === domainId);
    return domain !== undefined && domain.removedAt !== null;
  }
}
