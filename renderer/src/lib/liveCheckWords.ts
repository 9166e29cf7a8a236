/**
 * The live checks in words: a result's status as a badge, and Settings → Live checks' form (on/off per kind,
 * ports, the extra CA file, the connection cap) checked field by field before it is sent.
 */
import { fieldErrorsFromBridge } from './bridgeFieldErrors.ts';
import { whole } from './dnsWatchWords.ts';
import type { LiveChecksStatus } from '../../../shared/bridge/liveChecks.ts';
import type { Tone } from '../kit/types.ts';

/** A result's status as a badge. */
export const CHECK_STATUS: Record<string, { tone: Tone; label: string }> = {
  ok: { tone: 'good', label: 'no problem found' },
  problem: { tone: 'bad', label: 'problem' },
  not_applicable: { tone: 'neutral', label: 'not set up' },
  unknown: { tone: 'warn', label: 'could not check' },
};

/** How often a kind looks, in words ("every 24 h", "every minute"). */
export function cadenceWords(periodHours: number): string {
  if (periodHours >= 1) return `every ${Math.round(periodHours * 10) / 10} h`;
  const minutes = Math.max(1, Math.round(periodHours * 60));
  return minutes === 1 ? 'every minute' : `every ${minutes} minutes`;
}

/** The Settings form, as typed. */
export interface LiveChecksForm {
  enabled: boolean;
  kinds: Record<string, boolean>;
  smtpPort: string;
  httpsPort: string;
  connectionsPerMinute: string;
  extraCaFile: string;
  /** Minutes a delivery channel may fail before it is an alert (the channel_failing check's own option). */
  channelLimitMinutes: string;
  /** Each kind's stored options besides on/off (kept as they are). */
  kept: LiveChecksStatus['settings']['kinds'];
}

export type LiveChecksField =
  'smtpPort' | 'httpsPort' | 'connectionsPerMinute' | 'extraCaFile' | 'channelLimitMinutes' | 'form';

/** The delivery-channel check's settings key, and its limit's default (main/core/livechecks/defs/channelFailing.ts). */
const CHANNEL_KEY = 'channelFailing';
const CHANNEL_LIMIT_DEFAULT = 60;
export type LiveChecksErrors = Partial<Record<LiveChecksField, string>>;

/** The form filled from the current settings. */
export function liveChecksForm(status: LiveChecksStatus): LiveChecksForm {
  const s = status.settings;
  return {
    enabled: s.enabled,
    kinds: Object.fromEntries(
      status.kinds.map((k) => [k.settingsKey, s.kinds[k.settingsKey]?.enabled !== false]),
    ),
    smtpPort: String(s.smtpPort),
    httpsPort: String(s.httpsPort),
    connectionsPerMinute: String(s.connectionsPerMinute),
    extraCaFile: s.extraCaFile,
    channelLimitMinutes: String(s.kinds[CHANNEL_KEY]?.limitMinutes ?? CHANNEL_LIMIT_DEFAULT),
    kept: s.kinds,
  };
}

type Update = {
  enabled: boolean;
  kinds: Record<string, Record<string, unknown>>;
  smtpPort: number;
  httpsPort: number;
  connectionsPerMinute: number;
  extraCaFile: string;
};

/** The form checked: the update to send (kinds' other options kept), or an error per field. */
export function validateLiveChecks(form: LiveChecksForm): {
  update: Update | null;
  errors: LiveChecksErrors;
} {
  const errors: LiveChecksErrors = {};
  const smtp = whole(form.smtpPort, 1, 65_535, 'The SMTP port');
  const https = whole(form.httpsPort, 1, 65_535, 'The HTTPS port');
  const cap = whole(form.connectionsPerMinute, 1, 10_000, 'The connection cap');
  if (typeof smtp === 'string') errors.smtpPort = smtp;
  if (typeof https === 'string') errors.httpsPort = https;
  if (typeof cap === 'string') errors.connectionsPerMinute = cap;
  const limit = whole(form.channelLimitMinutes, 5, 10_080, 'The limit');
  if (typeof limit === 'string') errors.channelLimitMinutes = limit;
  const ca = form.extraCaFile.trim();
  if (ca !== '' && !/^(\/|[A-Za-z]:[\\/]|~)/.test(ca))
    errors.extraCaFile = 'Give the full path of a PEM file';
  if (
    typeof smtp !== 'number' ||
    typeof https !== 'number' ||
    typeof cap !== 'number' ||
    typeof limit !== 'number' ||
    errors.extraCaFile
  )
    return { update: null, errors };
  const kinds: Update['kinds'] = Object.fromEntries(
    Object.entries(form.kinds).map(([key, on]) => [key, { ...(form.kept[key] ?? {}), enabled: on }]),
  );
  kinds[CHANNEL_KEY] = { ...(kinds[CHANNEL_KEY] ?? {}), limitMinutes: limit };
  return {
    update: {
      enabled: form.enabled,
      kinds,
      smtpPort: smtp,
      httpsPort: https,
      connectionsPerMinute: cap,
      extraCaFile: ca,
    },
    errors,
  };
}

const FIELDS = new Set<string>(['smtpPort', 'httpsPort', 'connectionsPerMinute', 'extraCaFile']);

/** A refusal from the bridge (zod issues with paths) as errors on the fields they name. */
export function liveChecksErrorsFromBridge(error: unknown): LiveChecksErrors {
  return fieldErrorsFromBridge<LiveChecksField>(error, ({ path }) => {
    const first = Array.isArray(path) ? String(path[0]) : String(path ?? '').split('.')[0]!;
    return FIELDS.has(first) ? (first as LiveChecksField) : undefined;
  });
}
