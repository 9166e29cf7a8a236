/**
 * How the alert tier's polls are shared between the alert-bearing signals (health tells of a record removed
 * or restored, failed sources of a threat), learned from what this account's own polls told of.
 *
 * A change is told when the next poll of the signal carrying it lands, so its wait is spread over that
 * signal's period, and the p95 over all changes is what the user feels. When one signal carries most of the
 * changes, polling it a little more often and the other a little less lowers that p95 for the same
 * requests (the p95 of a mix of uniform waits is a small linear program: give the signals that carry the
 * most changes per job the full rate until 95 % of the changes are covered, the rest what is left). The
 * rarer signal is never slowed beyond MIN_ALERT_SHARE (its period at most 1.5 × the common one), and
 * with no history (or a balanced one) every alert signal keeps the one common period.
 */
import type { SignalName } from '../signals/catalog.ts';

/** Writes that told of a change are remembered this long. */
export const ALERT_RATE_WINDOW_MS = 7 * 86_400_000;
/** Changes assumed per signal before any was seen (so a few early alerts do not swing the shares). */
export const ALERT_RATE_PRIOR = 2;
/** The least share of the common period's polls any alert signal keeps. */
export const MIN_ALERT_SHARE = 2 / 3;
/** The quantile the shares minimise. */
export const ALERT_SHARE_QUANTILE = 0.95;

/**
 * The share (0, 1] of the common alert period's polls per signal, from how many changes each told of
 * (`told`, over the same window). Equal job counts per signal are assumed (every domain has each).
 */
export function alertShares(
  signals: readonly SignalName[],
  told: Readonly<Partial<Record<SignalName, number>>>,
): Partial<Record<SignalName, number>> {
  const shares: Partial<Record<SignalName, number>> = {};
  if (signals.length === 0) return shares;
  const weight = signals.map((signal) => ({ signal, count: (told[signal] ?? 0) + ALERT_RATE_PRIOR }));
  const total = weight.reduce((sum, w) => sum + w.count, 0);
  // Most changes first; name order breaks ties so equal histories give the same shares every time.
  weight.sort((a, b) => b.count - a.count || (a.signal < b.signal ? -1 : 1));
  let need = ALERT_SHARE_QUANTILE;
  let cost = 0;
  for (const [i, { signal, count }] of weight.entries()) {
    const w = count / total;
    // The busiest signal sets the common period (share 1); the floor may leave it more than it needs.
    const x = i === 0 ? 1 : Math.min(1, Math.max(MIN_ALERT_SHARE, need / w));
    shares[signal] = x;
    need -= w * x;
    cost += x;
  }
  // Equal shares cost QUANTILE × count for the same p95: skew only when it saves requests.
  if (cost >= ALERT_SHARE_QUANTILE * signals.length - 1e-9) for (const s of signals) shares[s] = 1;
  return shares;
}

/**
 * The shares the planner uses now: equal ones during the account's first day (firstDay.ts), the learned ones
 * after it, backfill or not (issue 37). In the first hours the lean had few changes to learn from and sat at
 * the very edge of its 95 %: the rarer signal's changes beyond the common period became the p95's tail
 * (threats at 1.2 × the round-robin's wait, 200 and 1,000 domains, seed 0), so the engine fell behind the
 * round-robin it matched on every other kind; equal shares are the round-robin's own. Held equal for as long
 * as the backfill ran instead, they cost the steady state its lean: on a day-two account the backfill runs
 * 10.8 h at 200 domains and days at 1,000, and the grid's engine ÷ peer went from 0.93 / 0.96 to 0.99 / 1.00.
 */
export function plannedShares(
  signals: readonly SignalName[],
  told: Readonly<Partial<Record<SignalName, number>>>,
  firstDay: boolean,
): Partial<Record<SignalName, number>> {
  return alertShares(signals, firstDay ? {} : told);
}

/** Remembers when each alert signal's writes told of a change (alerts opened or closed). */
export class AlertRates {
  private readonly told: { signal: SignalName; at: number }[] = [];

  /** One write of `signal` at `at` told of a change. */
  record(signal: SignalName, at: number): void {
    this.told.push({ signal, at });
  }

  /** Changes told per signal within ALERT_RATE_WINDOW_MS before `now` (older ones are forgotten). */
  counts(now: number): Partial<Record<SignalName, number>> {
    const from = now - ALERT_RATE_WINDOW_MS;
    let old = 0;
    while (old < this.told.length && this.told[old]!.at < from) old++;
    if (old > 0) this.told.splice(0, old);
    const counts: Partial<Record<SignalName, number>> = {};
    for (const { signal } of this.told) counts[signal] = (counts[signal] ?? 0) + 1;
    return counts;
  }
}
