import { tallyHeld, type HeldTally } from '../alerts/heldTally.ts';
import type { Wiring } from './wiring.ts';

/** The open alerts (of one account, or all) the silences and maintenance windows open now hold. */
export function heldAlerts(w: Pick<Wiring, 'mirror' | 'clock'>, accountId?: number): HeldTally {
  const now = new Date(w.clock.now()).toISOString();
  const holds = w.mirror.silences.activeAt(now);
  if (holds.length === 0) return { silenced: 0, byHold: new Map() };
  const open = w.mirror.listAlerts({
    open: true,
    limit: 'all',
    ...(accountId === undefined ? {} : { accountId }),
  });
  return tallyHeld(
    open.map((a) => w.mirror.silences.factsOf(a)),
    holds,
  );
}
