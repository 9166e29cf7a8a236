import type { ApiError } from './apiError.ts';

/** How the client retries a failed attempt. */
export interface RetryOptions {
  /** Total attempts per call, first one included (default 4). 1 disables retries. */
  maxAttempts: number;
  /** Cap of the first backoff window in ms (default 1000); the window doubles per retry. */
  baseDelayMs: number;
  /** Largest backoff window in ms (default 30 000). */
  maxDelayMs: number;
  /**
   * Longest Retry-After the client waits out by itself (default 60 000 ms). A longer one ends the call
   * with the error (its `retryAfterMs` set) so the scheduler can come back later instead of blocking.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/** Methods the spec lets us repeat without side effects. */
const IDEMPOTENT_READS = new Set(['GET', 'HEAD']);
/** Gateway and availability failures that usually pass. */
const TRANSIENT_STATUSES = new Set([502, 503, 504]);

/**
 * Whether repeating the same call can succeed: 429 always (the server did not process it), and
 * network errors, timeouts and 502/503/504 only for GET/HEAD (a POST may already have taken effect).
 */
export function isRetryable(method: string, error: Pick<ApiError, 'status' | 'code'>): boolean {
  if (error.status === 429) return true;
  if (!IDEMPOTENT_READS.has(method.toUpperCase())) return false;
  if (error.status === 0) return error.code === 'network_error' || error.code === 'timeout';
  return TRANSIENT_STATUSES.has(error.status);
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base·2^retryIndex)). */
export function backoffDelay(retryIndex: number, options: RetryOptions, random: () => number): number {
  const window = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retryIndex);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * window);
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

/**
 * Whether to try again after attempt number `attempt` (1-based) failed with `error`, and after how long.
 * A Retry-After the server sent wins over computed backoff.
 */
export function decideRetry(
  method: string,
  error: ApiError,
  attempt: number,
  options: RetryOptions,
  random: () => number,
): RetryDecision {
  if (!error.retryable || !isRetryable(method, error)) return { retry: false };
  if (attempt >= options.maxAttempts) return { retry: false };
  if (error.retryAfterMs !== undefined) {
    if (error.retryAfterMs > options.maxRetryAfterMs) return { retry: false };
    return { retry: true, delayMs: error.retryAfterMs };
  }
  return { retry: true, delayMs: backoffDelay(attempt - 1, options, random) };
}
