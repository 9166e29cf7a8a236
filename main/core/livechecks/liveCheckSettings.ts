/**
 * Settings → Live checks (mirror setting `liveChecks`), kept like the DNS watch's (dnswatch/watchSettings.ts):
 * one object, validated with zod, a bad stored value falling back to the defaults.
 */
import { z } from 'zod';
import type { LiveCheckDefinition } from './definition.ts';

/** The settings key. */
export const LIVE_CHECK_SETTINGS_KEY = 'liveChecks';

/**
 * The mirror setting holding what stops a kind of check on this network ({ [check]: { words, since } }): the
 * one setting-level notice (port 25 blocked) in place of an alert per domain.
 */
export const LIVE_CHECK_NOTICES_KEY = 'liveCheckNotices';

export const liveCheckSettingsSchema = z.object({
  /** All live checks on or off. */
  enabled: z.boolean(),
  /** The port MX hosts are dialed on for STARTTLS (25; a test world's own port). */
  smtpPort: z.number().int().min(1).max(65535),
  /** The port mta-sts.<domain> is fetched on (443; a test world's own port). */
  httpsPort: z.number().int().min(1).max(65535),
  /** New connections a minute across every check (SMTP and HTTPS), a politeness cap. */
  connectionsPerMinute: z.number().int().min(1).max(10_000),
  /** Milliseconds one network step may take (connect, TLS handshake, a reply). */
  timeoutMs: z.number().int().min(500).max(120_000),
  /** A PEM file of extra authorities for private PKI (beside the network's extra CA); '' for none. */
  extraCaFile: z.string().max(4096),
  /** Per kind (a check's `settingsKey`): `enabled` and the kind's own options. */
  kinds: z.record(z.string(), z.record(z.string(), z.unknown())),
});

export type LiveCheckSettings = z.infer<typeof liveCheckSettingsSchema>;

/**
 * Defaults: on; ports 25 and 443 as senders use them; 30 connections a minute (a daily round of 1,000
 * domains with two MX hosts each takes about 67 minutes, which a daily cadence affords, and no MX operator
 * sees more than a handful of polite connections a day from us); 10 s per step, as MTAs time out far later.
 */
export const DEFAULT_LIVE_CHECK_SETTINGS: LiveCheckSettings = {
  enabled: true,
  smtpPort: 25,
  httpsPort: 443,
  connectionsPerMinute: 30,
  timeoutMs: 10_000,
  extraCaFile: '',
  kinds: {},
};

/** The stored settings over the defaults (a bad stored value falls back to the defaults). */
export function readLiveCheckSettings(stored: unknown): LiveCheckSettings {
  const parsed = liveCheckSettingsSchema.safeParse({
    ...DEFAULT_LIVE_CHECK_SETTINGS,
    ...(stored && typeof stored === 'object' ? stored : {}),
  });
  return parsed.success ? parsed.data : DEFAULT_LIVE_CHECK_SETTINGS;
}

/** Whether a kind runs: the global switch and its own (on unless turned off). */
export function kindEnabled(settings: LiveCheckSettings, check: LiveCheckDefinition): boolean {
  return settings.enabled && settings.kinds[check.settingsKey]?.enabled !== false;
}

/** A kind's own settings over its defaults (a bad stored value falls back to them). */
export function kindSettings<S>(settings: LiveCheckSettings, check: LiveCheckDefinition<unknown, S>): S {
  if (!check.settings) return {} as S;
  const { enabled: _enabled, ...own } = settings.kinds[check.settingsKey] ?? {};
  const parsed = check.settings.schema.safeParse({ ...check.settings.defaults, ...own });
  return parsed.success ? parsed.data : check.settings.defaults;
}
