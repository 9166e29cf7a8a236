/** How the sync backs off a failing signal: doubling from `baseMs`, never longer than `capMs`. */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

/** One minute, doubling to at most one hour: a broken endpoint costs ≤ 1 request/hour once settled. */
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 60_000, capMs: 60 * 60_000 };

/** Delay before the next attempt after `consecutiveFailures` (≥ 1) failures in a row. */
export function backoffDelayMs(consecutiveFailures: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const n = Math.max(1, Math.floor(consecutiveFailures));
  // Cap the exponent so 2 ** n never overflows into Infinity for a long-broken endpoint.
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(n - 1, 30));
}
