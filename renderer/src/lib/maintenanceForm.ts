/**
 * The maintenance window form: what the user typed, checked before it is sent (as the bridge will), and the
 * window addMaintenance takes.
 */
import { isValidTimeZone } from './settingsForm.ts';

/** Sunday first, as the window's weekdays count (0 = Sunday). */
export const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** The form as typed. */
export interface WindowDraft {
  name: string;
  domain: string;
  group: string;
  /** An account the window is for (a domain's page knows it); undefined: every account. */
  accountId?: number;
  weekdays: number[];
  /** "02:00". */
  at: string;
  minutes: string;
  timeZone: string;
}

export type WindowErrors = Partial<
  Record<'name' | 'matchers' | 'weekdays' | 'at' | 'minutes' | 'timeZone' | 'form', string>
>;

/** A new window: Sundays 02:00 for 2 hours in this computer's zone, with what is known. */
export function newWindow(prefill: { domain?: string; accountId?: number } = {}): WindowDraft {
  return {
    name: prefill.domain ? `Maintenance of ${prefill.domain}` : '',
    domain: prefill.domain ?? '',
    group: '',
    ...(prefill.accountId === undefined ? {} : { accountId: prefill.accountId }),
    weekdays: [0],
    at: '02:00',
    minutes: '120',
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
}

/** Checks the form and builds the window; errors by field otherwise. */
export function checkWindow(d: WindowDraft): {
  save: {
    name: string;
    matchers: { accountId?: number; domain?: string; group?: string };
    weekdays: number[];
    hour: number;
    minute: number;
    durationMinutes: number;
    timeZone: string;
  } | null;
  errors: WindowErrors;
} {
  const errors: WindowErrors = {};
  const name = d.name.trim();
  if (!name) errors.name = 'A name, e.g. “Regional DNS”.';
  const matchers = {
    ...(d.accountId === undefined ? {} : { accountId: d.accountId }),
    ...(d.domain.trim() ? { domain: d.domain.trim().toLowerCase() } : {}),
    ...(d.group.trim() ? { group: d.group.trim() } : {}),
  };
  if (!matchers.domain && !matchers.group) errors.matchers = 'Say which alerts: a domain or a domain group.';
  if (d.weekdays.length === 0) errors.weekdays = 'At least one day.';
  const time = /^(\d{1,2}):(\d{2})$/.exec(d.at.trim());
  const hour = Number(time?.[1]);
  const minute = Number(time?.[2]);
  if (!time || hour > 23 || minute > 59) errors.at = 'A time of day, e.g. 02:00.';
  const minutes = Number(d.minutes.trim());
  if (!/^\d+$/.test(d.minutes.trim()) || minutes < 1 || minutes > 1440)
    errors.minutes = 'Whole minutes from 1 to 1,440 (a day).';
  if (!isValidTimeZone(d.timeZone.trim()))
    errors.timeZone = 'Not a time zone this computer knows (e.g. Europe/Berlin).';
  if (Object.keys(errors).length > 0) return { save: null, errors };
  return {
    save: {
      name,
      matchers,
      weekdays: d.weekdays,
      hour,
      minute,
      durationMinutes: minutes,
      timeZone: d.timeZone.trim(),
    },
    errors,
  };
}
