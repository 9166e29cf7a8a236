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

/** When it looks next: "next look in 55 minutes", "due now", "off", or at the first run. */
export function nextLookWords(c: Pick<AppLiveCheck, 'enabled' | 'nextAt'>, now: number): string {
  if (!c.enabled) return 'off in Settings → Live checks';
  if (c.nextAt === null) return 'first look when the live checks next run';
  if (Date.parse(c.nextAt) <= now) return 'next look due now';
  return `next look ${relativeTime(c.nextAt, now)}`;
}
