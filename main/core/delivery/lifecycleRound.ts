import type { Mirror } from '../mirror/types.ts';

/** How often the sweep runs at most: the sender's rounds come after every write in a storm. */
const SWEEP_EVERY_MS = 5_000;

/**
 * What the outbox sender does before its rounds (at most every 5 s): the alerts a silence held whose
 * silence ended while they are still open are queued now, once, and so are the silence notices, escalations
 * and reminders the routing table owes (the mirror's transactions make each happen once across restarts). A mirror busy with
 * another writer is left for the next round.
 */
export function lifecycleSweep(mirror: Mirror, now: () => number): () => void {
  let last = -Infinity;
  return () => {
    const at = now();
    if (at - last < SWEEP_EVERY_MS && at >= last) return;
    last = at;
    try {
      mirror.releaseSilenced(at);
      mirror.noteSilences(at);
      mirror.escalateDue(at);
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
  };
}
