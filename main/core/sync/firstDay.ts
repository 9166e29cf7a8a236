/**
 * The first day belongs to the alerts (issue 37). A user judges the app in its first hours, and a
 * round-robin over the two alert-bearing reads alone spends the whole sync on them: at the same rate no
 * schedule beats it, so the only way to be ahead in those hours is to give the alert reads more. For this
 * long after an account's first sync started, a portfolio whose alert reads cannot all be at their 1-minute
 * floor gives them the sync's whole rate, the backfill's loan included (57 a minute at 60; the 3 for edits
 * kept), and its backfill (scores, histories, DNS changes, context) waits for the day's end, then runs on
 * the loan until it is complete (tierAllocation.ts). A day covers every window the first hours are judged
 * in (1, 3, 6 and 24 h) and no more: the history it delays is review, not alerting.
 */
export const ALERTS_FIRST_DAY_MS = 24 * 3_600_000;

/**
 * When the account's first day ends (epoch ms), from when it was added: an account is synced from the
 * moment it is added, and that instant is in the mirror already (the account's createdAt), so a restart
 * during the first day neither restarts it nor forgets it. null when the instant cannot be read.
 */
export function firstDayEndsAt(account: { createdAt: string }): number | null {
  const added = Date.parse(account.createdAt);
  return Number.isFinite(added) ? added + ALERTS_FIRST_DAY_MS : null;
}

/** True while `now` is within the account's first day. */
export function inFirstDay(account: { createdAt: string }, now: number): boolean {
  const ends = firstDayEndsAt(account);
  return ends !== null && now < ends;
}
