/**
 * The live checks in words: a result's status as a badge, and Settings → Live checks' form (on/off per kind,
 * ports, the extra CA file, the connection cap, the blocklist zones) checked field by field before it is sent.
 */
import {
  DNSBL_ZONE_NAME,
  KNOWN_DNSBL_ZONES,
  MAX_DNSBL_ZONES,
} from '../../../shared/email-auth/dnsblZones.ts';
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
  /** The well-known blocklist zones ticked (by zone name). */
  knownZones: Record<string, boolean>;
  /** Other zones, typed: one per line or separated by commas or spaces. */
  customZones: string;
  /** Each kind's stored options besides on/off (kept as they are). */
  kept: LiveChecksStatus['settings']['kinds'];
}

export type LiveChecksField =
  | 'smtpPort'
  | 'httpsPort'
  | 'connectionsPerMinute'
  | 'extraCaFile'
  | 'channelLimitMinutes'
  | 'dnsblZones'
  | 'form';

/** The delivery-channel check's settings key, and its limit's default (main/core/livechecks/defs/channelFailing.ts). */
const CHANNEL_KEY = 'channelFailing';
const CHANNEL_LIMIT_DEFAULT = 60;

/** The settings key of the blocklist check (its options hold `zones`). */
const DNSBL_KEY = 'dnsbl';

/** The stored zones of the blocklist check (none by default). */
function storedZones(kinds: LiveChecksStatus['settings']['kinds']): string[] {
  const zones = kinds[DNSBL_KEY]?.zones;
  return Array.isArray(zones) ? zones.filter((z): z is string => typeof z === 'string') : [];
}

/** The zones the form names: the ticked well-known ones, then the typed ones, each once. */
export function zonesOf(form: Pick<LiveChecksForm, 'knownZones' | 'customZones'>): string[] {
  const typed = form.customZones
    .split(/[\s,;]+/)
    .map((z) => z.trim().toLowerCase().replace(/\.$/, ''))
    .filter(Boolean);
  const known = KNOWN_DNSBL_ZONES.map((z) => z.zone).filter((z) => form.knownZones[z]);
  return [...new Set([...known, ...typed])];
}

/** What is wrong with the zones, in words, or null. */
export function zonesProblem(zones: readonly string[]): string | null {
  const bad = zones.filter((z) => !DNSBL_ZONE_NAME.test(z));
  if (bad.length > 0)
    return `${bad.map((z) => `“${z}”`).join(', ')} ${bad.length === 1 ? 'is not a zone name' : 'are not zone names'}: give a name like bl.example.net (no address, no http://)`;
  if (zones.length > MAX_DNSBL_ZONES)
    return `At most ${MAX_DNSBL_ZONES} zones: ${zones.length} are chosen (each zone is asked about every address of every domain)`;
  return null;
}
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
    knownZones: Object.fromEntries(
      KNOWN_DNSBL_ZONES.map((z) => [z.zone, storedZones(s.kinds).includes(z.zone)]),
    ),
    customZones: storedZones(s.kinds)
      .filter((z) => !KNOWN_DNSBL_ZONES.some((k) => k.zone === z))
      .join('\n'),
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
  const zones = zonesOf(form);
  const zoneProblem = zonesProblem(zones);
  if (zoneProblem) errors.dnsblZones = zoneProblem;
  if (
    typeof smtp !== 'number' ||
    typeof https !== 'number' ||
    typeof cap !== 'number' ||
    typeof limit !== 'number' ||
    errors.extraCaFile ||
    errors.dnsblZones
  )
    return { update: null, errors };
  const kinds: Update['kinds'] = Object.fromEntries(
    Object.entries(form.kinds).map(([key, on]) => [key, { ...(form.kept[key] ?? {}), enabled: on }]),
  );
  kinds[CHANNEL_KEY] = { ...(kinds[CHANNEL_KEY] ?? {}), limitMinutes: limit };
  kinds[DNSBL_KEY] = { ...(kinds[DNSBL_KEY] ?? {}), zones };
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
    const parts = Array.isArray(path) ? path.map(String) : String(path ?? '').split('.');
    if (parts[0] === 'kinds' && parts[1] === DNSBL_KEY) return 'dnsblZones';
    const first = parts[0]!;
    return FIELDS.has(first) ? (first as LiveChecksField) : undefined;
  });
}
