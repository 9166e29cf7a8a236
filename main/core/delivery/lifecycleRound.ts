import type { Mirror } from '../mirror/types.ts';

/**
 * What the outbox sender does before each round: the alerts a silence held whose silence ended while they
 * are still open are queued now, once (the mirror's transaction makes it so across restarts). A mirror busy
 * with another writer is left for the next round.
 */
export function releaseDue(mirror: Mirror, now: number): void {
  try {
    mirror.releaseSilenced(now);
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
  }
}
