/**
 * The app's and accounts' own live checks in words (./liveChecks.ts's appLiveChecks), the same in Settings
 * and in `authwatch checks`.
 */
import { relativeTime } from '../time/timeWords.ts';
import type { AppLiveCheck } from './liveChecks.ts';

/** Whose check it is: the account's label, or the app's (delivery channels serve every account). */
export function appCheckWhose(c: Pick<AppLiveCheck, 'account'>): string {
  return c.account ? c.account.label : 'this app';
}

/** When it looks next: "next look in 55 minutes", "within a minute", "due now", "off", or at the first run. */
export function nextLookWords(c: Pick<AppLiveCheck, 'enabled' | 'nextAt'>, now: number): string {
  if (!c.enabled) return 'off in Settings → Live checks';
  if (c.nextAt === null) return 'first look when the live checks next run';
  const next = Date.parse(c.nextAt);
  if (next <= now) return 'next look due now';
  // relativeTime says "just now" for the next 45 s, which reads as the past.
  if (next - now < 60_000) return 'next look within a minute';
  return `next look ${relativeTime(next, now)}`;
}
