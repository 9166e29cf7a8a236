import type { Settings, SyncStatus } from '../../../shared/bridge/results.ts';
import { MAX_EDIT_SILENCE_MINUTES } from '../../../shared/bridge/args.ts';
import { fieldErrorsFromBridge } from './bridgeFieldErrors.ts';
import { duration, num } from './format.ts';

/** The settings form as typed (strings for numbers, switches for the optional parts). */
export interface SettingsForm {
  scoreStep: string;
  floorOn: boolean;
  scoreFloor: string;
  quietOn: boolean;
  /** Quiet hours hold critical alerts too (off: a critical always notifies). */
  holdCriticals: boolean;
  startHour: string;
  endHour: string;
  timeZone: string;
  /** Minutes an edit made here silences the alerts it is expected to cause (0: never). */
  editSilenceMinutes: string;
  ratePerMinute: string;
  headroom: string;
}

export type SettingsField = keyof SettingsForm | 'form';
export type SettingsErrors = Partial<Record<SettingsField, string>>;

/** What updateSettings takes: every alert threshold and sync limit, as the settings carry them. */
export type SettingsUpdate = Pick<Settings, 'alerts' | 'sync'>;

/** The form filled from the current settings. */
export function formFromSettings(settings: Settings): SettingsForm {
  const a = settings.alerts;
  return {
    scoreStep: String(a.scoreStep),
    floorOn: a.scoreFloor !== null,
    scoreFloor: a.scoreFloor === null ? '5' : String(a.scoreFloor),
    quietOn: a.quietHours !== null,
    holdCriticals: a.quietHoldsCriticals,
    startHour: String(a.quietHours?.startHour ?? 22),
    endHour: String(a.quietHours?.endHour ?? 7),
    timeZone: a.timeZone ?? '',
    editSilenceMinutes: String(a.editSilenceMinutes),
    ratePerMinute: String(settings.sync.ratePerMinute),
    headroom: String(settings.sync.headroom),
  };
}

/** True when the runtime knows this IANA time zone (e.g. Europe/Berlin). */
export function isValidTimeZone(zone: string): boolean {
  if (!zone || zone.length > 100) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function decimal(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

function wholeNumber(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/** Checks the form as the bridge will, field by field, and builds the update. */
export function validateSettings(form: SettingsForm): {
  update: SettingsUpdate | null;
  errors: SettingsErrors;
} {
  const errors: SettingsErrors = {};
  const step = decimal(form.scoreStep);
  if (step === null || step < 0.1 || step > 10) errors.scoreStep = 'A number from 0.1 to 10, e.g. 1.5.';
  let floor: number | null = null;
  if (form.floorOn) {
    floor = decimal(form.scoreFloor);
    if (floor === null || floor > 10) errors.scoreFloor = 'A number from 0 to 10.';
  }
  let quiet: { startHour: number; endHour: number } | null = null;
  if (form.quietOn) {
    const start = wholeNumber(form.startHour);
    const end = wholeNumber(form.endHour);
    if (start === null || start > 23) errors.startHour = 'An hour from 0 to 23.';
    if (end === null || end > 23) errors.endHour = 'An hour from 0 to 23.';
    else if (start !== null && start === end)
      errors.endHour = 'The quiet hours end at another hour than they start.';
    if (start !== null && end !== null) quiet = { startHour: start, endHour: end };
  }
  const zone = form.timeZone.trim();
  if (zone && !isValidTimeZone(zone))
    errors.timeZone = 'Not a time zone this computer knows: use an IANA name such as Europe/Berlin.';
  const editSilence = wholeNumber(form.editSilenceMinutes);
  if (editSilence === null || editSilence > MAX_EDIT_SILENCE_MINUTES)
    errors.editSilenceMinutes = `A whole number of minutes from 0 (never) to ${num(MAX_EDIT_SILENCE_MINUTES)}.`;
  const rate = wholeNumber(form.ratePerMinute);
  if (rate === null || rate < 1 || rate > 100_000)
    errors.ratePerMinute = 'A whole number of requests per minute, from 1 to 100,000.';
  const headroom = wholeNumber(form.headroom);
  if (headroom === null || headroom > 1000) errors.headroom = 'A whole number from 0 to 1,000.';
  else if (rate !== null && headroom >= rate)
    errors.headroom = 'The headroom must be smaller than the rate limit, or nothing is left for syncing.';
  if (Object.keys(errors).length > 0) return { update: null, errors };
  return {
    update: {
      alerts: {
        scoreStep: step!,
        scoreFloor: floor,
        quietHours: quiet,
        timeZone: zone || null,
        quietHoldsCriticals: quiet !== null && form.holdCriticals,
        editSilenceMinutes: editSilence!,
      },
      sync: { ratePerMinute: rate!, headroom: headroom! },
    },
    errors,
  };
}

const PATHS: Record<string, SettingsField> = {
  'alerts.scoreStep': 'scoreStep',
  'alerts.scoreFloor': 'scoreFloor',
  'alerts.quietHours': 'startHour',
  'alerts.quietHours.startHour': 'startHour',
  'alerts.quietHours.endHour': 'endHour',
  'alerts.timeZone': 'timeZone',
  'alerts.editSilenceMinutes': 'editSilenceMinutes',
  'sync.ratePerMinute': 'ratePerMinute',
  ratePerMinute: 'ratePerMinute',
  'sync.headroom': 'headroom',
  headroom: 'headroom',
  sync: 'headroom',
};

/** Maps the bridge's invalid_arguments details ([{path, message}]) onto the form's fields. */
export function errorsFromBridge(error: unknown): SettingsErrors {
  return fieldErrorsFromBridge<SettingsField>(
    error,
    ({ path, message }) =>
      PATHS[typeof path === 'string' ? path : ''] ?? (/headroom/.test(message) ? 'headroom' : undefined),
    'invalid_arguments',
  );
}

type AccountSync = SyncStatus['accounts'][number];

/** The rate budget of one account in words, and each signal's period (wanted vs achieved). */
export function budgetWords(account: AccountSync): {
  summary: string;
  periods: {
    signal: string;
    label: string;
    target: string;
    effective: string;
    stretched: boolean;
    jobs: number;
  }[];
} {
  // The status's ratePerMinute is the bucket's refill: what the sync can spend each minute while a burst
  // still never crosses the limit. The headroom is a floor of requests the sync never takes, not a rate.
  const usable = Math.round(account.budget.ratePerMinute * 10) / 10;
  const kept = account.budget.headroom;
  const demand = Math.round(account.demandPerMinute * 10) / 10;
  const demandText = num(demand);
  const stretch = account.stretchFactor;
  const summary =
    stretch > 1.05
      ? `The sync may spend ${num(usable)} requests a minute (so that no minute ever crosses the token’s limit; ${num(kept)} ${kept === 1 ? 'is' : 'are'} always left for your own edits), but checking everything as often as wanted would need about ${demandText}. Every period is stretched ×${stretch.toFixed(1)}: data is refreshed less often than wanted, and the limit is never exceeded.`
      : `The sync may spend ${num(usable)} requests a minute (so that no minute ever crosses the token’s limit; ${num(kept)} ${kept === 1 ? 'is' : 'are'} always left for your own edits) and needs about ${demandText}: everything is checked as often as wanted.`;
  // What each signal watches comes with the status, from the signal's definition in main.
  const words: Readonly<Record<string, string | undefined>> = account.words;
  const periods = Object.entries(account.periods)
    .filter((entry): entry is [string, NonNullable<(typeof entry)[1]>] => entry[1] !== undefined)
    .map(([signal, p]) => ({
      signal,
      label: words[signal] ?? signal,
      target: duration(p.targetSeconds),
      effective: duration(p.effectiveSeconds),
      stretched: p.effectiveSeconds > p.targetSeconds * 1.05,
      jobs: p.jobs,
    }));
  return { summary, periods };
}
