/** The token-bucket parameters of one account's API token. */
export interface BudgetShape {
  /** Largest burst (bucket size), headroom included. */
  capacity: number;
  /** Sustained refill, requests per minute. */
  refillPerMinute: number;
  /** Tokens background sync always leaves in the bucket for the user's edits. */
  headroom: number;
}

/**
 * Shapes the bucket so that background sync alone never exceeds the service's limit in ANY 60 s: sync can
 * take at most (capacity − headroom) + refill within a minute, and that sum is the limit. The sync's burst
 * is a sixth of the limit, which is also more than one 10-second tick of refill, so no refill is lost
 * between ticks. The user's edits may use the headroom on top (worst case limit + headroom in a minute,
 * only while editing during a burst; a 429 then is backed off as usual).
 *   60/minute, headroom 6 → bucket 16, refill 50/minute; the planner counts on 50 − 6 = 44/minute.
 */
export function budgetShape(limitPerMinute: number, headroom: number): BudgetShape {
  const limit = Math.max(1, Math.floor(limitPerMinute));
  if (limit < 3) return { capacity: 1, refillPerMinute: Math.max(1, limit - 1), headroom: 0 };
  const keep = Math.max(0, Math.min(Math.floor(headroom), limit - 3));
  const burst = Math.ceil(limit / 6);
  return { capacity: keep + burst, refillPerMinute: limit - burst, headroom: keep };
}
