import type { LiveCheckRow } from '../mirror/liveCheckStore.ts';
import type { LiveCheckDefinition } from './definition.ts';

/**
 * When a check is due to look again at a target it last looked at: its period after a look that saw
 * something, its (shorter) retry after one that could not say. The runner's schedule and the screens that
 * say "next look" read the same time.
 */
export function nextLookAt(
  check: Pick<LiveCheckDefinition, 'cadence'>,
  row: Pick<LiveCheckRow, 'status' | 'checkedAt'>,
): number {
  const seconds = row.status === 'unknown' ? check.cadence.retrySeconds : check.cadence.periodSeconds;
  return Date.parse(row.checkedAt) + seconds * 1000;
}
