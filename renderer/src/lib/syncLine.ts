import type { Connectivity, SyncStatus } from '../../../shared/bridge/results.ts';

type AccountSync = SyncStatus['accounts'][number];

/**
 * The sidebar's sync line for one account, saying only what is true: offline is said even when the last
 * success was a minute ago ("Last synced 1 minute ago · service unreachable"); before the domain list has
 * arrived the first sync is "waiting for the domain list", never "0 of 0 domains".
 */
export type SyncLine =
  | { kind: 'paused'; reason: string }
  | { kind: 'rate_limited' }
  | { kind: 'unreachable'; lastSuccessAt: string | null; message: string | null }
  | { kind: 'waiting_for_list' }
  | { kind: 'first_sync'; done: number; total: number; etaSeconds: number | null }
  | {
      kind: 'history_backfill';
      done: number;
      total: number;
      etaSeconds: number | null;
      /** While it waits for the account's first day to end (its alert reads come first), when it starts. */
      startsAt: string | null;
    }
  | { kind: 'synced'; lastSuccessAt: string | null };

/** The line for an account from its sync status, its connectivity and the latest progress event. */
export function syncLine(
  a: AccountSync,
  connectivity: Connectivity | undefined,
  progress: { domainsDone: number; domainsTotal: number; etaSeconds: number | null } | undefined,
): SyncLine {
  if (a.state === 'paused')
    return { kind: 'paused', reason: (a.pausedReason ?? 'paused').replaceAll('_', ' ') };
  if (connectivity && !connectivity.online) {
    const last = [connectivity.lastSuccessAt, a.lastSuccessAt]
      .filter((t): t is string => t !== null)
      .sort()
      .at(-1);
    return { kind: 'unreachable', lastSuccessAt: last ?? null, message: connectivity.message };
  }
  if (a.state === 'rate_limited') return { kind: 'rate_limited' };
  if (!a.backfill.complete) {
    const total = Math.max(progress?.domainsTotal ?? 0, a.backfill.domainsTotal);
    if (total === 0) return { kind: 'waiting_for_list' };
    const done = Math.min(total, Math.max(progress?.domainsDone ?? 0, a.backfill.domainsDone));
    const etaSeconds = progress?.etaSeconds ?? null;
    // Every domain watched, its history still coming: the backfill yields to the alert reads (hours to
    // days in a large portfolio), which is said, not shown as a first sync that never ends.
    if ((a.backfill.domainsWatched ?? 0) >= total)
      return { kind: 'history_backfill', done, total, etaSeconds, startsAt: a.backfill.startsAt ?? null };
    return { kind: 'first_sync', done: a.backfill.domainsWatched ?? done, total, etaSeconds };
  }
  return { kind: 'synced', lastSuccessAt: a.lastSuccessAt };
}

/**
 * The history backfill in words: how far it is, and, while it waits for the first day's alert reads, when
 * it starts ("starts at 10:41 tomorrow", in the user's locale) and when it is done; an unknown ETA is not
 * made up.
 */
export function backfillWords(
  line: Extract<SyncLine, { kind: 'history_backfill' }>,
  now: number,
  duration: (seconds: number) => string,
  locale?: string,
): string {
  const count = (n: number) => n.toLocaleString(locale);
  const done = `History back-filled for ${count(line.done)} of ${count(line.total)} domains`;
  const eta = line.etaSeconds ? `about ${duration(line.etaSeconds)}` : null;
  const starts = line.startsAt === null ? NaN : Date.parse(line.startsAt);
  if (!(starts > now)) return eta ? `${done} · ${eta} left` : done;
  const when = `starts at ${dayTime(starts, now, locale)}`;
  return `${done} — the first day’s alert reads come first; ${when}${eta ? `, done in ${eta}` : ''}`;
}

/** "10:41 today", "10:41 tomorrow" or "10:41 on 3 Dec", in the user's locale. */
function dayTime(at: number, now: number, locale?: string): string {
  const time = new Date(at).toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });
  const day = (t: number) => new Date(t).toDateString();
  if (day(at) === day(now)) return `${time} today`;
  if (day(at) === day(now + 86_400_000)) return `${time} tomorrow`;
  return `${time} on ${new Date(at).toLocaleDateString(locale, { day: 'numeric', month: 'short' })}`;
}
