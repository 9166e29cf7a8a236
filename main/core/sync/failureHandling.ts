import { SIGNALS } from '../signals/catalog.ts';
import { backoffDelayMs, type BackoffPolicy } from './backoff.ts';
import type { SyncEvent } from './events.ts';
import { accountBlockText, classifyFailure, type FailureOutcome } from './failurePolicy.ts';
import type { SyncContext } from './syncContext.ts';
import { SCOPE_RECHECK_MS, type SyncJob } from './syncJobs.ts';

/** Paused for plan or access reasons, the account is re-checked hourly with GET /auth/me (1 request). */
export const PAUSED_RECHECK_MS = 3_600_000;
/** How long after a rate-limit hold fetches stay one at a time (parallel calls would all be refused). */
export const SERIAL_AFTER_429_MS = 5 * 60_000;

/**
 * Acts on one failed fetch as failurePolicy classifies it: a 429 holds the account (and makes it serial),
 * a blocked account is paused with one account alert, a missing scope holds the signal for a day, any other
 * failure is recorded on the signal and backed off. The sync errors and alerts are worded here (or by the
 * mirror). Never throws: a mirror that refuses the record is logged.
 */
export async function handleFailure(
  ctx: SyncContext,
  backoff: BackoffPolicy,
  job: SyncJob,
  error: unknown,
  at: number,
): Promise<FailureOutcome> {
  const { mirror, accountId } = ctx.o;
  const holds = ctx.holds;
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
        // Counted from now, not from the job's start: the client may have spent longer than Retry-After
        // waiting out earlier 429s of the same call, and a hold already over would hold nothing.
        const failedAt = Math.max(at, ctx.o.clock.now());
        holds.heldUntil = Math.max(holds.heldUntil, failedAt + outcome.retryAfterMs);
        holds.serialUntil = Math.max(holds.serialUntil, holds.heldUntil + SERIAL_AFTER_429_MS);
        ctx.emit({ type: 'rate_limited', accountId, until: holds.heldUntil });
        break;
      }
      case 'account_blocked': {
        const account = ctx.account();
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
          ctx.o.logger?.warn('account paused', { accountId, reason: outcome.reason });
          ctx.emit({
            type: 'account_paused',
            accountId,
            reason: outcome.reason,
            message: outcome.message,
          });
          await ctx.afterWrite();
        }
        holds.lastPausedCheck = at;
        break;
      }
      case 'scope_missing': {
        mirror.recordSyncError({
          ...subject,
          error: { ...base, retryable: false, missingScope: outcome.scope },
          at,
          nextDueAt: at + SCOPE_RECHECK_MS,
        });
        ctx.emit(syncError);
        await ctx.afterWrite();
        break;
      }
      case 'signal_failed': {
        const failures = (job.state?.consecutiveFailures ?? 0) + 1;
        mirror.recordSyncError({
          ...subject,
          error: { ...base, status: outcome.status, retryable: true },
          at,
          nextDueAt: at + backoffDelayMs(failures, backoff),
        });
        ctx.o.logger?.warn('signal fetch failed', { ...subject, code: base.code });
        ctx.emit(syncError);
        break;
      }
    }
  } catch (storeError) {
    // The mirror refused (e.g. the domain vanished meanwhile): log it, never crash the sync.
    ctx.o.logger?.error('could not record a sync failure', {
      accountId,
      signal: job.signal,
      error: storeError instanceof Error ? storeError.message : String(storeError),
    });
  }
  return outcome;
}

/** Paused for plan or access reasons, the account is probed hourly; success resumes it. */
export async function maybeRecheckPaused(ctx: SyncContext, reason: string, now: number): Promise<void> {
  if (reason === 'token_invalid' || reason === 'token_missing') return; // only a new token helps
  if (now - ctx.holds.lastPausedCheck < PAUSED_RECHECK_MS) return;
  ctx.holds.lastPausedCheck = now;
  try {
    await ctx.o.api.get('/auth/me', { priority: 'background' });
    ctx.o.mirror.setAccountPaused(ctx.o.accountId, null);
    ctx.o.logger?.info('account resumed', { accountId: ctx.o.accountId });
  } catch {
    // Still blocked; the open account alert says why.
  }
}
