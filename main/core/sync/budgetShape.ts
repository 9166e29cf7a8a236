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
 * Shapes the bucket and the 60 s window. The window (windowLimit, windowReserve) is what keeps every 60 s
 * within the service's limit: background sync to the limit less windowReserve (57 at 60), everything,
 * edits included, to the limit. The sustained rate is nine tenths of the limit (the last tenth is the
 * edits' share of the rate), 90 %: what the planner counts on. The bucket's part for the sync (capacity −
 * headroom) holds two tenths of the limit, over two 5-second ticks of refill (a twelfth each): a tick that
 * outlasts its 5 s (a change's extra reads waiting for the budget) makes the scheduler skip the next, and a
 * bucket of one tenth then lost that tick's refill (the sync at 56.3 a minute where 57 was lent; 56.9 with
 * the larger bucket in a 2 h trial). The bucket no longer bounds the minute: the window does.
 *   60/minute, headroom 6 → bucket 18, refill 54/minute, window 60 (57 for the sync).
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
    capacity: keep + 2 * burst,
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
