/**
 * The yardsticks: what any poller of this interface could do at best with the token's limit.
 *
 * The day's changes need two signals per domain to be seen at all: a record removed or restored shows in
 * the domain's health (its DNS changes show it too, but add nothing the health poll does not), a threat
 * only in its failed sources. Keeping the other signals at their targets (security score hourly, health and
 * score history every 6 h, the domain list hourly in pages of 100) costs R_other requests a minute; the
 * best poller spends the rest of the limit L on those 2·N jobs at one period T. A change lands at a
 * uniformly random moment of that period, so the p95 of its wait is 0.95·T:
 *
 *   R_other = N/60 + 2N/360 + ⌈N/100⌉/60        T* = 2N / (L − R_other) minutes        p95* = 0.95·T*
 *
 * (An app that also keeps DNS changes for its timeline polls 3·N jobs; it can stay close to T* only by
 * staggering a domain's health and DNS-changes polls so that one of them looks every half period.)
 *
 * First sync: the domain list and the 3 alert signals of every domain, then the score and 2 history series:
 *   watch* = (⌈N/100⌉ + 3N) / L minutes           backfill* = (⌈N/100⌉ + 6N) / L minutes
 */

/** The limit of one token, requests per minute. */
export const LIMIT_PER_MINUTE = 60;

/** The yardsticks for N domains. */
export interface Minimums {
  otherPerMinute: number;
  alertPeriodMs: number;
  p95Ms: number;
  watchMs: number;
  backfillMs: number;
}

/** The formulas above, for N domains and a limit L. */
export function minimums(domains: number, limit = LIMIT_PER_MINUTE): Minimums {
  const pages = Math.max(1, Math.ceil(domains / 100));
  const other = domains / 60 + (2 * domains) / 360 + pages / 60;
  const periodMin = (2 * domains) / (limit - other);
  return {
    otherPerMinute: other,
    alertPeriodMs: periodMin * 60_000,
    p95Ms: 0.95 * periodMin * 60_000,
    watchMs: ((pages + 3 * domains) / limit) * 60_000,
    backfillMs: ((pages + 6 * domains) / limit) * 60_000,
  };
}

/** The formulas as printed under the tables. */
export const MINIMUM_FORMULAS = [
  'p95* = 0.95 × T*,  T* = 2N / (L − R_other) min,  R_other = N/60 + 2N/360 + ⌈N/100⌉/60,  L = 60/min',
  '  (a record change shows in health, a threat in failed sources: 2 signals per domain at one period T*;',
  '   security score hourly, health and score history every 6 h and the domain list hourly at their targets)',
  'first sync: watch* = (⌈N/100⌉ + 3N) / L min,  backfill* = (⌈N/100⌉ + 6N) / L min',
];
