/**
 * The yardstick: the best any poller of this interface could do for the alerts the day scores, with one
 * token's limit L = 60 requests a minute, of which the app keeps R = 6 for the user's edits.
 *
 * A record removed or restored shows in the domain's health, a threat only in its failed sources: two
 * alert-bearing reads per domain, and nothing else subtracted (no score, history, DNS changes or domain
 * list: a poller that spends anything on them is above the bound). At one common period T every change
 * lands at a uniformly random moment of it, so the p95 of its wait is 0.95·T:
 *
 *   T* = 2N / (L − R) minutes        p95* = 0.95·T*
 *
 * First sync, "every domain watched" (both alert-bearing reads of every domain done once), after listing
 * the domains in pages of 100, at the whole limit:
 *
 *   watch* = (⌈N/100⌉ + 2N) / L minutes
 */

/** The limit of one token, requests per minute. */
export const LIMIT_PER_MINUTE = 60;
/** What the app keeps for the user's edits (the sync settings' default). */
export const EDIT_RESERVE = 6;

/** The yardsticks for N domains. */
export interface LowerBound {
  /** T*: the common period of the two alert-bearing reads, ms. */
  alertPeriodMs: number;
  /** p95* = 0.95·T*, ms. */
  p95Ms: number;
  /** watch*: first sync, every domain watched, ms. */
  watchMs: number;
}

/** The formulas above, for N domains. */
export function lowerBound(domains: number, limit = LIMIT_PER_MINUTE, reserve = EDIT_RESERVE): LowerBound {
  const pages = Math.max(1, Math.ceil(domains / 100));
  const periodMin = (2 * domains) / (limit - reserve);
  return {
    alertPeriodMs: periodMin * 60_000,
    p95Ms: 0.95 * periodMin * 60_000,
    watchMs: ((pages + 2 * domains) / limit) * 60_000,
  };
}

/** The formulas as printed under the tables. */
export const LOWER_BOUND_FORMULAS = [
  'p95* = 0.95 × T*,  T* = 2N / (L − R) min,  L = 60/min, R = 6 kept for edits',
  '  (a record change shows in health, a threat in failed sources: 2 reads per domain at one period;',
  '   nothing else is subtracted, so no poller that reads anything more can reach it)',
  'first sync, every domain watched: watch* = (⌈N/100⌉ + 2N) / L min',
];
