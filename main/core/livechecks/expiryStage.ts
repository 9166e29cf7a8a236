/**
 * Where a date stands against its warning thresholds: the tokens' 14 and 3 days, the VMCs' 30, 14 and 3.
 * Judged from the stored date against the clock (no request), so a warning is raised on the day the threshold
 * is crossed, not at the next weekly read.
 */
import type { AlertEvent, RaiseEvent } from '../alerts/types.ts';

/** The nearest threshold reached (days before expiry), `expired`, or null while none is reached. */
export type ExpiryStage = { stage: 'expired' } | { stage: 'soon'; thresholdDays: number } | null;

const DAY_MS = 86_400_000;

/** The stage of `expiresAt` at `now` for `thresholds` (days, any order); null for no date or an unreadable one. */
export function expiryStage(
  expiresAt: string | null,
  now: number,
  thresholds: readonly number[],
): ExpiryStage {
  if (!expiresAt || !Number.isFinite(Date.parse(expiresAt))) return null;
  const ms = Date.parse(expiresAt) - now;
  if (ms <= 0) return { stage: 'expired' };
  const reached = [...thresholds].sort((a, b) => a - b).find((d) => ms <= d * DAY_MS);
  return reached === undefined ? null : { stage: 'soon', thresholdDays: reached };
}

/** A stage as a key part ("expired", "3d"), so each stage is its own alert episode. */
export function stageKey(stage: NonNullable<ExpiryStage>): string {
  return stage.stage === 'expired' ? 'expired' : `${stage.thresholdDays}d`;
}

/** "in 3 days", "today", "2 days ago": a date relative to now, for titles. */
export function expiryWords(expiresAt: string, now: number): string {
  const ms = Date.parse(expiresAt) - now;
  const days = Math.floor(Math.abs(ms) / DAY_MS);
  if (ms <= 0) return days === 0 ? 'expired today' : `expired ${days} day${days === 1 ? '' : 's'} ago`;
  return days === 0 ? 'expires within a day' : `expires in ${days} day${days === 1 ? '' : 's'}`;
}

/**
 * The events of one-episode-per-stage alerts (each stage notifies once): every open episode under `prefix`
 * but the current stage's ends, and the current stage's is raised unless it is open already.
 */
export function stageEpisodeEvents(
  openAlerts: ReadonlyMap<string, unknown>,
  prefix: string,
  stage: string | null,
  raise: (dedupeKey: string) => RaiseEvent,
): AlertEvent[] {
  const key = stage ? prefix + stage : null;
  const events: AlertEvent[] = [...openAlerts.keys()]
    .filter((k) => k.startsWith(prefix) && k !== key)
    .map((dedupeKey) => ({ type: 'resolve', dedupeKey }));
  if (key && !openAlerts.has(key)) events.push(raise(key));
  return events;
}
