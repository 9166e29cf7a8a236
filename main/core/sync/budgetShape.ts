/** The token-bucket parameters of one account's API token. */
export interface BudgetShape {
  /** Largest burst (bucket size), headroom included. */
  capacity: number;
  /** Sustained refill, requests per minute. */
  refillPerMinute: number;
  /** Tokens background sync always leaves in the bucket for the user's edits. */
  headroom: number;
  /** Requests any 60 s may hold, edits included: the limit itself. */
  windowLimit: number;
  /** Of those, what background sync leaves to the user's edits in any 60 s. */
  windowReserve: number;
}

/**
 * Shapes the bucket so that background sync alone never exceeds the service's limit in ANY 60 s: sync can
 * take at most (capacity − headroom) + refill within a minute, and that sum is the limit. The sync's burst
 * is a tenth of the limit, more than one 5-second tick of refill (a twelfth), so no refill is lost between
 * ticks, and the sustained rate is the other nine tenths: 90 % of the limit, the share left once the
 * headroom is kept for the user's edits. The user's edits may use the headroom on top (worst case limit +
 * headroom in a minute, only while editing during a burst; a 429 then is backed off as usual).
 *   60/minute, headroom 6 → bucket 12, refill 54/minute; the planner counts on the 54/minute.
 * The limit's last tenth is the edits' share of the rate. While a first sync's backfill runs, the sync
 * borrows part of it (RateBudget.lend, tierAllocation.ts's BACKFILL_LOAN_SHARE, 3 a minute) for the backfill
 * alone; a window over every 60 s then keeps the sync to the limit less windowReserve (57), and every
 * request, edits included, to the limit: an edit beyond the reserve waits a second or so, never meets a 429.
 */
export function budgetShape(limitPerMinute: number, headroom: number): BudgetShape {
  const limit = Math.max(1, Math.floor(limitPerMinute));
  if (limit < 3)
    return {
      capacity: 1,
      refillPerMinute: Math.max(1, limit - 1),
      headroom: 0,
      windowLimit: limit,
      windowReserve: 0,
    };
  const keep = Math.max(0, Math.min(Math.floor(headroom), limit - 3));
  const burst = Math.ceil(limit / 10);
  return {
    capacity: keep + burst,
    refillPerMinute: limit - burst,
    headroom: keep,
    windowLimit: limit,
    windowReserve: Math.ceil(burst / 2),
  };
}

/** The part of a RateBudget a tick plans with (the syncer and its tests plan alike). */
export interface TickBudget {
  available(options: { priority: 'background'; withinMs?: number }): number;
}

/**
 * How long a tick's requests may wait for the 60 s window: the reservations a tick made go out over its
 * first round trips (4 at a time), so a minute later the last of them leave the window just after the tick.
 */
export const TICK_WINDOW_WAIT_MS = 1_000;

/** Requests one tick may plan: what the budget holds now, the window's slots freed within a second included. */
export function tickSpendable(budget: TickBudget): number {
  return budget.available({ priority: 'background', withinMs: TICK_WINDOW_WAIT_MS });
}
