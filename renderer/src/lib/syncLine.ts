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
  | { kind: 'history_backfill'; done: number; total: number; etaSeconds: number | null }
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
      return { kind: 'history_backfill', done, total, etaSeconds };
    return { kind: 'first_sync', done: a.backfill.domainsWatched ?? done, total, etaSeconds };
  }
  return { kind: 'synced', lastSuccessAt: a.lastSuccessAt };
}
