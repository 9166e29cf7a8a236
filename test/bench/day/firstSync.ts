/**
 * The engine's first sync, from its 'changed' events on the virtual clock: when every domain had its
 * alert-bearing reads (health, failed sources) for the first time — from then on every change the day
 * scores can raise an alert — and when every core and history signal of every domain was in (backfill
 * complete).
 */
import type { SignalName } from '../../../main/core/signals/catalog.ts';
import type { SyncEvent } from '../../../main/core/sync/events.ts';
import { CORE_SIGNALS, HISTORY_SIGNALS } from '../../../main/core/sync/syncJobs.ts';

/** The reads the day's alerts come from (the score's alert rides on the same health poll). */
export const ALERT_BEARING: readonly SignalName[] = ['health', 'failed_sources'];

/** First-sync instants, in ms after the start (null when not reached within the day). */
export interface FirstSyncFigures {
  watchedMs: number | null;
  backfilledMs: number | null;
  /** Absolute instant of the backfill's end (the steady state starts there). */
  backfilledAt: number | null;
  /** Requests the first sync needs before every domain is watched / backfilled. */
  watchRequests: number;
  backfillRequests: number;
  /**
   * How many of the core and history signals of every domain (backfillSignals of them) were in by the day's
   * end: when backfilledMs is null, how far the backfill got (a large portfolio's takes days).
   */
  backfillDone: number;
  backfillSignals: number;
}

/** Watches sync events; `figures()` reads the result. */
export function firstSyncWatch(now: () => number, start: number, domains: number) {
  const firstSeen = new Map<string, number>();
  const watchedCount = { n: 0 };
  const backfilledCount = { n: 0 };
  let watchedAt: number | null = null;
  let backfilledAt: number | null = null;
  const listPages = Math.max(1, Math.ceil(domains / 100));
  const all = [...CORE_SIGNALS, ...HISTORY_SIGNALS];
  return {
    observe(event: SyncEvent): void {
      if (event.type !== 'changed' || event.domainId === null) return;
      const key = `${event.domainId}:${event.signal}`;
      if (firstSeen.has(key)) return;
      firstSeen.set(key, now());
      if (ALERT_BEARING.includes(event.signal)) {
        watchedCount.n += 1;
        if (watchedCount.n === domains * ALERT_BEARING.length) watchedAt = now();
      }
      if (all.includes(event.signal)) {
        backfilledCount.n += 1;
        if (backfilledCount.n === domains * all.length) backfilledAt = now();
      }
    },
    figures(): FirstSyncFigures {
      return {
        watchedMs: watchedAt === null ? null : watchedAt - start,
        backfilledMs: backfilledAt === null ? null : backfilledAt - start,
        backfilledAt,
        watchRequests: listPages + domains * ALERT_BEARING.length,
        backfillRequests: listPages + domains * all.length,
        backfillDone: backfilledCount.n,
        backfillSignals: domains * all.length,
      };
    },
  };
}
