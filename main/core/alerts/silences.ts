import { instantOf, nextSlot, parseWeeklyTime } from './weeklySlot.ts';
import { matchesEverything, type AlertMatchers } from './matchers.ts';

/**
 * A silence: alerts it matches between its start and end are raised, recorded and shown, but not notified on
 * any channel; one still open when the silence ends is notified then, once.
 */
export interface Silence {
  id: number;
  matchers: AlertMatchers;
  reason: string;
  /** Who made it: the token's user in the app, the OS user on the command line. */
  author: string;
  startsAt: string;
  endsAt: string;
  createdAt: string;
  /** When someone ended it early (endsAt is then that moment too), and who. */
  expiredAt: string | null;
  expiredBy: string | null;
  /** Null when a person made it; the edit that opened it otherwise (see SilenceOrigin). */
  origin: SilenceOrigin | null;
}

/**
 * An edit made through the app's own forms opens a short silence of the alerts it is expected to cause on
 * its domain (the protocol it changes): the user planned that change, so its alert must not page anyone.
 */
export interface SilenceOrigin {
  kind: 'edit';
  /** The edit operation (updateDmarcPolicy, deleteHostedSpf …). */
  operation: string;
  /** The protocol it changes (dmarc, spf …). */
  protocol: string;
  /** What it set, in words ("p=reject", "hosted record removed"). */
  summary: string;
}

/** What a new or edited silence is made of. */
export interface SilenceInput {
  matchers: AlertMatchers;
  reason: string;
  startsAt: string;
  endsAt: string;
}

/** Where a silence stands at `now`. */
export type SilenceState = 'pending' | 'active' | 'expired';

/** Whether a silence has not begun, holds, or is over at `now` (ISO). */
export function silenceState(s: Pick<Silence, 'startsAt' | 'endsAt'>, now: string): SilenceState {
  if (s.endsAt <= now) return 'expired';
  return s.startsAt > now ? 'pending' : 'active';
}

/** A silence's input refused, in words a person can act on. */
export class SilenceInputError extends Error {
  override readonly name = 'SilenceInputError';
}

/** The longest silence: a forgotten one must not hide a domain for good (Alertmanager has none; we cap). */
export const MAX_SILENCE_MS = 90 * 24 * 3600_000;

/** Refuses what would silence everything, nothing, or for ever; returns the input trimmed. */
export function checkSilenceInput(input: SilenceInput): SilenceInput {
  const reason = input.reason.trim();
  if (!reason) throw new SilenceInputError('A silence needs a reason (what is being changed, and why).');
  if (reason.length > 500) throw new SilenceInputError('The reason is longer than 500 characters.');
  if (matchesEverything(input.matchers))
    throw new SilenceInputError(
      'A silence needs at least one matcher (account, group, domain, protocol, rule or severity): ' +
        'it would otherwise hold every alert.',
    );
  const start = Date.parse(input.startsAt);
  const end = Date.parse(input.endsAt);
  if (Number.isNaN(start) || Number.isNaN(end))
    throw new SilenceInputError('The start and end must be dates and times.');
  if (end <= start) throw new SilenceInputError('A silence must end after it starts.');
  if (end - start > MAX_SILENCE_MS)
    throw new SilenceInputError('A silence lasts at most 90 days; make another when it ends.');
  return {
    matchers: input.matchers,
    reason,
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(end).toISOString(),
  };
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** "2h", "90m", "1h30m", "3d", "1w" → milliseconds; null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (!/^(\d+\s*[mhdw]\s*)+$/.test(t)) return null;
  let ms = 0;
  for (const [, n, unit] of t.matchAll(/(\d+)\s*([mhdw])/g)) ms += Number(n) * UNIT_MS[unit!]!;
  return ms > 0 ? ms : null;
}

/**
 * When "until …" ends, after `now`: "mon 08:00" (the next Monday 08:00 in the zone), "08:00" (the next
 * 08:00), or a date and time ("2026-12-01 08:00" in the zone; an ISO instant with Z or an offset as it is).
 */
export function parseUntil(text: string, now: number, timeZone: string): number | null {
  const t = text.trim();
  const weekly = parseWeeklyTime(t);
  if (weekly) return nextSlot({ ...weekly, timeZone }, now);
  const daily = /^(\d{1,2}):(\d{2})$/.exec(t);
  if (daily) {
    const hour = Number(daily[1]);
    const minute = Number(daily[2]);
    if (hour > 23 || minute > 59) return null;
    return Math.min(
      ...[0, 1, 2, 3, 4, 5, 6].map((weekday) => nextSlot({ weekday, hour, minute, timeZone }, now)),
    );
  }
  if (/[zZ]$|[+-]\d{2}:?\d{2}$/.test(t)) {
    const at = Date.parse(t);
    return Number.isNaN(at) ? null : at;
  }
  const local = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})$/.exec(t);
  if (!local) return null;
  return instantOf(
    Number(local[1]),
    Number(local[2]),
    Number(local[3]),
    Number(local[4]),
    Number(local[5]),
    timeZone,
  );
}
