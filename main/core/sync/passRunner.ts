import type { BudgetPriority } from '../../../shared/api/rateBudget.ts';
import { SIGNALS, type SignalName } from '../signals/catalog.ts';
import {
  PASS_RATE_LIMIT_PATIENCE_MS,
  passTimeLimitMs,
  type AccountBlockReason,
  type FailureOutcome,
} from './failurePolicy.ts';
import type { JobRunner } from './jobRunner.ts';
import { compareUrgency, isDue } from './planner.ts';
import { emitPassProgress } from './progress.ts';
import type { SyncContext } from './syncContext.ts';
import { CORE_SIGNALS, jobKey, ON_DEMAND_SIGNALS, type SyncJob } from './syncJobs.ts';

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
  /** A registry signal's name (a string, as the bridge carries it). */
  signal: string;
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
  heldBack: { domainId: number | null; fqdn: string | null; signal: string }[];
  /**
   * Why the pass stopped early, in one plain line the CLI and the app show as they are (rate limited,
   * service unreachable, out of time), or null when it ran to the end.
   */
  stopped: string | null;
}

/**
 * One manual pass ("sync now", `authwatch sync --once`; AccountSyncer.runPass says what it covers). The
 * caller makes sure no tick or other pass runs meanwhile.
 */
export async function runPass(ctx: SyncContext, runner: JobRunner, abort?: AbortSignal): Promise<PassResult> {
  const start = ctx.requests;
  const startedAt = ctx.o.clock.now();
  const result: PassResult = {
    accountId: ctx.o.accountId,
    fetched: 0,
    failed: 0,
    requestsSpent: 0,
    errors: [],
    paused: null,
    rateLimitedUntil: null,
    heldBack: [],
    stopped: null,
  };
  const attempted = new Set<string>();
  const isLeft = (job: SyncJob, now: number) => !attempted.has(job.key) && inPass(job, now);
  const patience = ctx.o.maxPassHoldMs ?? PASS_RATE_LIMIT_PATIENCE_MS;
  // When a fetch last got through (or the pass began). Each rate-limit hold alone may be short (a 429
  // without Retry-After holds a minute), so the pass is bounded by the time since then, waits in the API
  // client included: a server that refuses everything ends the pass, a slow one does not.
  let progressAt = startedAt;
  // Set by a 429 that came after the last fetch that got through. The client waits out a short Retry-After
  // itself, so the account's hold may already be over when the call fails: patience is checked either way.
  let limited = false;
  let unreachable: string | null = null;
  let outOfTime = false;
  // The pass's own bound (a slow server answering each call just in time must not keep it going for ever);
  // the user's abort stops it too. Checked between jobs: at most the calls in flight run over.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  abort?.addEventListener('abort', onAbort);
  let limitMs = passTimeLimitMs(0, ctx.syncCapacity());
  const overTime = (now: number) => {
    if (now - startedAt <= limitMs) return false;
    outOfTime = true;
    stop.abort();
    return true;
  };
  // A manual pass is the user asking: a paused account is tried again (one request tells).
  const account = ctx.account();
  if (account?.pausedReason) ctx.o.mirror.setAccountPaused(ctx.o.accountId, null);
  ctx.holds.heldUntil = 0;

  for (;;) {
    if (stop.signal.aborted) break;
    const now = ctx.o.clock.now();
    const heldUntil = ctx.holds.heldUntil;
    if (limited && Math.max(heldUntil, now) - progressAt > patience) {
      result.rateLimitedUntil = Math.max(heldUntil, now);
      break;
    }
    if (overTime(now)) break;
    if (heldUntil > now) {
      const wake = Math.min(heldUntil, startedAt + limitMs + 1);
      await ctx.o.clock.sleep(Math.max(0, wake - now), stop.signal).catch(() => undefined);
      continue;
    }
    const all = ctx.jobs(now);
    const due = all.filter((job) => isLeft(job, now));
    if (due.length === 0) break;
    limitMs = passTimeLimitMs(all.filter((job) => inPass(job, now)).length, ctx.syncCapacity());
    due.sort((a, b) => compareUrgency(a, b, now, 1));
    // The domain list first, alone, whatever its age: it decides which domains the rest of the pass covers
    // (a domain deleted on the service must not be asked for).
    const list = due.find((job) => job.signal === 'domains');
    const batch = list ? [list] : due;
    const outcome = await runner.runJobs(
      batch,
      ctx.stretch(all),
      () => emitPassProgress(ctx, all, start, startedAt, isLeft),
      (job, done) => {
        if (done.kind === 'rate_limited') {
          limited = true; // the patience (checked first) says whether the pass waits or stops
          return; // waited out, then fetched again
        }
        overTime(ctx.o.clock.now());
        attempted.add(job.key);
        if (done.kind === 'ok') {
          result.fetched += 1;
          progressAt = ctx.o.clock.now();
          limited = false;
        } else if (done.kind !== 'domain_gone') {
          result.failed += 1;
          result.errors.push(passError(job, done));
          // Nothing listens on the service's port: every further call would be refused the same way.
          if (isConnectionRefused(done)) {
            unreachable ??= done.message;
            stop.abort();
          }
        }
      },
      stop.signal,
    );
    if (outcome === 'paused') {
      result.paused = (ctx.account()?.pausedReason as AccountBlockReason | null) ?? 'token_invalid';
      break;
    }
  }
  abort?.removeEventListener('abort', onAbort);
  if (result.paused || result.rateLimitedUntil !== null || stop.signal.aborted) {
    const now = ctx.o.clock.now();
    result.heldBack = ctx
      .jobs(now)
      .filter((job) => isLeft(job, now))
      .map((job) => ({ domainId: job.domainId, fqdn: job.fqdn, signal: job.signal }));
  }
  result.requestsSpent = ctx.requests - start;
  result.stopped = stopLine(result, { unreachable, outOfTime, limitMs, patience });
  return result;
}

/** A failure of the connection itself: nothing listens at the service's address and port. */
function isConnectionRefused(outcome: FailureOutcome): boolean {
  return outcome.code === 'network_error' && /ECONNREFUSED/.test(outcome.message);
}

/** The one line that says why a pass stopped early, or null. */
function stopLine(
  result: PassResult,
  why: { unreachable: string | null; outOfTime: boolean; limitMs: number; patience: number },
): string | null {
  const left = result.heldBack.length ? ` ${result.heldBack.length} not synced.` : '';
  if (why.unreachable !== null) return `service unreachable: ${why.unreachable}${left}`;
  if (result.rateLimitedUntil !== null)
    return (
      `rate limited: the service refused requests longer than a manual sync waits (${minutes(why.patience)} ` +
      `without a fetch getting through) and asks to wait until ` +
      `${new Date(result.rateLimitedUntil).toISOString()}.${left}`
    );
  if (why.outOfTime)
    return `time limit: the sync stopped after ${minutes(why.limitMs)} (the service answers too slowly).${left}`;
  return null;
}

function minutes(ms: number): string {
  const m = ms / 60_000;
  return `${Number.isInteger(m) ? m : m.toFixed(1)} min`;
}

/**
 * Fetches some signals of one domain (or the account's list) now (AccountSyncer.refresh says when). Opened
 * on-demand signals get a sync state first, which makes them tracked. Returns the signals fetched.
 */
export async function refresh(
  ctx: SyncContext,
  runner: JobRunner,
  domainId: number | null,
  signals: readonly SignalName[],
  options: RefreshOptions,
): Promise<SignalName[]> {
  const { mirror, accountId } = ctx.o;
  const account = ctx.account();
  const now = ctx.o.clock.now();
  if (!account || account.pausedReason || ctx.holds.heldUntil > now) return [];
  const known = new Set(mirror.getSyncStates(accountId).map((s) => jobKey(s.domainId, s.signal)));
  if (domainId !== null) {
    for (const signal of signals) {
      if (ON_DEMAND_SIGNALS.includes(signal) && !known.has(jobKey(domainId, signal))) {
        mirror.setNextDue({
          accountId,
          domainId,
          signal,
          nextDueAt: now,
          periodSeconds: SIGNALS[signal].periodSeconds,
        });
      }
    }
  }
  const all = ctx.jobs(now);
  const stretch = ctx.stretch(all);
  const staleAfter = options.staleAfterMs;
  const picked = all.filter(
    (job) =>
      job.domainId === domainId &&
      signals.includes(job.signal) &&
      !job.stopped &&
      (staleAfter === undefined || job.lastSuccessAt === null || now - job.lastSuccessAt >= staleAfter),
  );
  if (picked.length === 0) return [];
  await runner.runJobs(picked, stretch, () => undefined, undefined, undefined, options.priority);
  return picked.map((job) => job.signal);
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
