/** The token-bucket parameters of one account's API token. */
export interface BudgetShape {
  /** Largest burst (bucket size). */
  capacity: number;
  /** Sustained refill, requests per minute. */
  refillPerMinute: number;
  /** Tokens background sync leaves for the user's edits. */
  headroom: number;
}

/**
 * Shapes the bucket so that our own traffic never exceeds the service's limit in ANY minute: a bucket of
 * size B refilling at F per minute can send at most B + F requests within 60 s, so B + F = the limit.
 * The burst is a sixth of the limit (at least the headroom plus 4, so sync can still burst a little):
 * 60/minute → bucket 10, refill 50/minute, headroom 6 → the planner counts on 44/minute for sync.
 */
export function budgetShape(limitPerMinute: number, headroom: number): BudgetShape {
  const limit = Math.max(1, Math.floor(limitPerMinute));
  if (limit < 3) return { capacity: 1, refillPerMinute: Math.max(1, limit - 1), headroom: 0 };
  const keep = Math.max(0, Math.min(Math.floor(headroom), limit - 3));
  const capacity = Math.min(limit - 1, Math.max(keep + 4, Math.ceil(limit / 6)));
  return { capacity, refillPerMinute: limit - capacity, headroom: keep };
}
