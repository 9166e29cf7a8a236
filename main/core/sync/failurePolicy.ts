import { isApiError } from '../../../shared/api/apiError.ts';
import { missingScope, type ScopeTable } from './requiredScope.ts';

/** Why an account stops syncing until the user acts. */
export type AccountBlockReason =
  'token_invalid' | 'token_missing' | 'api_plan_not_eligible' | 'api_access_disabled';

/** What the sync does about one failed fetch. */
export type FailureOutcome =
  /** The token's rate limit was hit: hold every job of the account until `retryAfterMs` passed. */
  | { kind: 'rate_limited'; retryAfterMs: number; code: string; message: string }
  /** The account itself cannot sync: pause it and raise one account alert. */
  | { kind: 'account_blocked'; reason: AccountBlockReason; code: string; message: string }
  /** The token lacks the scope of this signal: stop the signal, keep the account running. */
  | { kind: 'scope_missing'; scope: string | null; code: string; message: string }
  /** Anything else (5xx, timeout, garbage, unexpected shapes): record on the signal and back off. */
  | { kind: 'signal_failed'; status: number; code: string; message: string; requestId?: string };

/** A 429 without Retry-After is held for one minute: the limit is per minute. */
export const DEFAULT_RATE_LIMIT_HOLD_MS = 60_000;

/**
 * How long a one-shot sync (sync now, `authwatch sync --once`) waits out rate limiting in total while no
 * fetch gets through, before it stops and says it was rate limited. A Retry-After longer than this stops
 * it at once. Scheduled syncing keeps backing off instead.
 */
export const PASS_RATE_LIMIT_PATIENCE_MS = 5 * 60_000;

/** A manual pass takes at least this long before its time limit can stop it. */
export const PASS_BASE_TIME_LIMIT_MS = 5 * 60_000;

/**
 * The whole manual pass's time limit: 5 min, plus twice the time the budget needs for the pass's jobs (a
 * first sync of 1,000 domains legitimately takes 80 min at 50 requests a minute). A server that answers
 * each call slowly (but within the per-call timeout) stops there, saying what was not synced.
 */
export function passTimeLimitMs(jobs: number, ratePerMinute: number): number {
  return PASS_BASE_TIME_LIMIT_MS + Math.ceil((2 * jobs * 60_000) / Math.max(1, ratePerMinute));
}

/** Maps any error of one signal fetch to what the sync does next. */
export function classifyFailure(
  error: unknown,
  call: { method: string; pathTemplate?: string },
  scopes?: ScopeTable,
): FailureOutcome {
  if (!isApiError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'signal_failed', status: 0, code: 'unexpected_error', message };
  }
  const { status, code, message } = error;
  if (status === 429 || code === 'rate_limited') {
    return {
      kind: 'rate_limited',
      retryAfterMs: error.retryAfterMs ?? DEFAULT_RATE_LIMIT_HOLD_MS,
      code,
      message,
    };
  }
  if (status === 401 || code === 'invalid_api_token' || code === 'missing_api_token') {
    return { kind: 'account_blocked', reason: 'token_invalid', code, message };
  }
  if (code === 'token_unavailable') {
    return { kind: 'account_blocked', reason: 'token_missing', code, message };
  }
  if (code === 'api_plan_not_eligible' || code === 'api_access_disabled') {
    return { kind: 'account_blocked', reason: code, code, message };
  }
  if (code === 'insufficient_scope') {
    return {
      kind: 'scope_missing',
      scope: missingScope(call.method, call.pathTemplate, message, scopes),
      code,
      message,
    };
  }
  return {
    kind: 'signal_failed',
    status,
    code,
    message,
    ...(error.requestId ? { requestId: error.requestId } : {}),
  };
}

/** The account alert's title and body, in plain words, for each blocking reason. */
export function accountBlockText(reason: AccountBlockReason, label: string): { title: string; body: string } {
  switch (reason) {
    case 'token_invalid':
      return {
        title: `API token of “${label}” was rejected`,
        body:
          `The service no longer accepts the API token of “${label}” (it is unknown, revoked or expired). ` +
          'Syncing of this account is paused; create a new token and enter it in the account settings.',
      };
    case 'token_missing':
      return {
        title: `No API token for “${label}”`,
        body:
          `No API token could be read for “${label}” (none is stored, or the keychain is locked). ` +
          'Syncing of this account is paused; enter the token again in the account settings.',
      };
    case 'api_plan_not_eligible':
      return {
        title: `“${label}” is on a plan without API access`,
        body:
          `The account “${label}” is on a plan that does not include the API (Comply and trial plans are not ` +
          'eligible; Protect and Suite are). Syncing of this account is paused until the plan changes.',
      };
    case 'api_access_disabled':
      return {
        title: `API access is disabled for “${label}”`,
        body:
          `API access is turned off for the account “${label}”. Ask the account owner to enable it; ` +
          'syncing of this account is paused until then.',
      };
  }
}
