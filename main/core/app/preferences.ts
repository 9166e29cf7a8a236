import { appPreferencesSchema } from '../../../shared/bridge/args.ts';
import type { AppPreferences } from '../../../shared/bridge/results.ts';
import type { Mirror } from '../mirror/types.ts';

const APP_KEY = 'app';
const PAUSE_KEY = 'notificationsPausedUntil';
const DEFAULTS: AppPreferences = { startAtLogin: false, notifications: true };

/** The app-level preferences, defaults filled in (a damaged value falls back to the defaults). */
export function appPreferences(mirror: Mirror): AppPreferences {
  const parsed = appPreferencesSchema.safeParse({ ...DEFAULTS, ...(mirror.getSetting(APP_KEY) as object) });
  return parsed.success ? parsed.data : DEFAULTS;
}

/** Store a change of the app-level preferences; returns the result. */
export function saveAppPreferences(mirror: Mirror, patch: Partial<AppPreferences>): AppPreferences {
  const next = { ...appPreferences(mirror), ...patch };
  mirror.setSetting(APP_KEY, next);
  return next;
}

/** Until when notifications are paused (ISO), or null; a pause in the past reads as null. */
export function notificationsPausedUntil(mirror: Mirror, now: number): string | null {
  const until = mirror.getSetting(PAUSE_KEY);
  return typeof until === 'string' && Date.parse(until) > now ? until : null;
}

/** Pause notifications until a time (null: resume now). Held alerts are delivered when the pause ends. */
export function pauseNotifications(mirror: Mirror, until: number | null): void {
  mirror.setSetting(PAUSE_KEY, until === null ? undefined : new Date(until).toISOString());
}

/**
 * What delivery does now: 'hold' while paused (alerts wait, as in quiet hours), 'silence' when the user
 * turned notifications off (alerts are recorded as seen by nobody, so turning them on does not flood),
 * else 'deliver'.
 */
export function notificationsHeld(mirror: Mirror, now: number): 'deliver' | 'hold' | 'silence' {
  if (!appPreferences(mirror).notifications) return 'silence';
  return notificationsPausedUntil(mirror, now) ? 'hold' : 'deliver';
}
