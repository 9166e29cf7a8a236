import { matchesAlert, type AlertFacts, type AlertMatchers } from './matchers.ts';

/** A silence or open maintenance window, as the tally reads it. */
export interface TallyHold {
  kind: 'silence' | 'maintenance';
  id: number;
  matchers: AlertMatchers;
}

/** How many open alerts are silenced now, in all and by each hold. */
export interface HeldTally {
  /** Open alerts at least one hold matches, each counted once ("3 silenced"). */
  silenced: number;
  /** Per hold (holdKey), the open alerts it matches. */
  byHold: Map<string, number>;
}

/** The tally's key of a hold. */
export const holdKey = (kind: TallyHold['kind'], id: number): string => `${kind}:${id}`;

/**
 * Counts the open alerts the active holds match: the one number the tray, the window's header and the
 * Silences screen all show, so they never disagree. An alert two silences match is one silenced alert.
 */
export function tallyHeld(open: readonly AlertFacts[], holds: readonly TallyHold[]): HeldTally {
  const byHold = new Map<string, number>(holds.map((h) => [holdKey(h.kind, h.id), 0]));
  let silenced = 0;
  for (const facts of open) {
    let held = false;
    for (const hold of holds) {
      if (!matchesAlert(hold.matchers, facts)) continue;
      held = true;
      const key = holdKey(hold.kind, hold.id);
      byHold.set(key, (byHold.get(key) ?? 0) + 1);
    }
    if (held) silenced++;
  }
  return { silenced, byHold };
}
