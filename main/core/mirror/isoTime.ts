import { MirrorError } from './mirrorError.ts';
import type { Instant } from './types.ts';

/**
 * An instant as the mirror stores it: ISO 8601 UTC with milliseconds. One format everywhere, so that text
 * order is time order in SQL (the server's own timestamps are normalised the same way).
 */
export function toIso(instant: Instant): string {
  const ms =
    instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : Date.parse(instant);
  if (!Number.isFinite(ms)) throw new MirrorError('invalid_input', `not a point in time: ${String(instant)}`);
  return new Date(ms).toISOString();
}

/** toIso for optional values. */
export function toIsoOrNull(instant: Instant | null | undefined): string | null {
  return instant === null || instant === undefined ? null : toIso(instant);
}
