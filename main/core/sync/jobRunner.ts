import { isApiError } from '../../../shared/api/apiError.ts';
import type { BudgetPriority } from '../../../shared/api/rateBudget.ts';
import type { Alert, Mirror } from '../mirror/types.ts';
import type { BackoffPolicy } from './backoff.ts';
import { handleFailure } from './failureHandling.ts';
import type { FailureOutcome } from './failurePolicy.ts';
import { effectivePeriodMs, type Stretch } from './planner.ts';
import { fetchSignal, incrementalStart } from './signalFetcher.ts';
import type { SyncContext } from './syncContext.ts';
import { jobKey, keptPeriodMs, tierOf, type SyncJob } from './syncJobs.ts';

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
 * Fetches and stores jobs for ticks, passes and refreshes alike, so that all three obey the same holds and
 * parallelism and word failures the same way. Holds the one piece of state a run shares across its jobs:
 * the domain-list fetch started after a 404.
 */
export class JobRunner {
  private readonly ctx: SyncContext;
  private readonly backoff: BackoffPolicy;
  /** A domain-list fetch started after a 404, shared by the jobs that met one meanwhile. */
  private listRefresh: Promise<void> | null = null;

  constructor(ctx: SyncContext, backoff: BackoffPolicy) {
    this.ctx = ctx;
    this.backoff = backoff;
  }

  /**
   * Runs jobs with bounded parallelism. Stops launching new ones when the account gets paused or held
   * by the rate limit. Returns 'paused', 'held' or 'done'.
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
    const serial = this.ctx.o.clock.now() < this.ctx.holds.serialUntil;
    const width = serial ? 1 : Math.max(1, Math.min(this.ctx.o.concurrency ?? 4, jobs.length));
    await Promise.all(Array.from({ length: width }, worker));
    return stop ?? 'done';
  }

  /** Fetches and stores one job; returns how it ended. Never throws. */
  private async runJob(job: SyncJob, stretch: Stretch, priority: BudgetPriority): Promise<JobResult> {
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
      const written = mirror.writeSignal({
        accountId,
        domainId: job.domainId,
        signal: job.signal,
        payload: fetched.payload,
        fetchedAt,
        ...(fetched.window ? { window: fetched.window } : {}),
        nextDueAt: fetchedAt + effectivePeriodMs(job, stretch.factor),
      } as Parameters<Mirror['writeSignal']>[0]);
      ctx.emit({ type: 'changed', accountId, domainId: job.domainId, signal: job.signal });
      if (written.alerts.length || written.resolved.length) {
        if (job.tier === 'alert') ctx.alertRates.record(job.signal, fetchedAt);
        await ctx.afterWrite();
      }
      if (recordChanged(job, written.alerts)) await this.runJob(dnsChangesOf(job), stretch, priority);
      return { kind: 'ok' };
    } catch (error) {
      if (job.domainId !== null && isApiError(error) && error.status === 404) {
        if (await this.leftTheList(job.domainId, startedAt, priority)) return { kind: 'domain_gone' };
      }
      return handleFailure(ctx, this.backoff, job, error, startedAt);
    }
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
        if (list) await this.runJob(list, this.ctx.stretch(all), priority);
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
