/**
 * The live checks across the bridge (main/core/livechecks): a domain's Checks tab, and Settings → Live checks.
 */
import { z } from 'zod';

const checkStatus = z.enum(['ok', 'problem', 'not_applicable', 'unknown']);

/** One term of an SPF record's lookup tree, with what it costs (itself and everything under it). */
export interface SpfTreeNode {
  term: string;
  lookups: number;
  voids: number;
  problem?: string | undefined;
  children: SpfTreeNode[];
}
const spfTreeNodeSchema: z.ZodType<SpfTreeNode> = z.lazy(() =>
  z.object({
    term: z.string(),
    lookups: z.number().int(),
    voids: z.number().int(),
    problem: z.string().optional(),
    children: z.array(spfTreeNodeSchema),
  }),
);

/** One blocklist answer: an address, the zone asked, and what the zone said. */
const blocklistAnswerSchema = z.object({
  ip: z.string(),
  source: z.string(),
  zone: z.string(),
  kind: z.enum(['listed', 'clear', 'error']),
  codes: z.array(z.string()),
  /** The zone's TXT reason for a listing, or why the answer is an error. */
  reason: z.string().nullable(),
});

/** One check's latest result for a domain, in words, with what it saw and its history of changes. */
export const liveCheckViewSchema = z.object({
  check: z.string(),
  label: z.string(),
  /** What the check does, for people. */
  words: z.string(),
  /** null: not yet checked. */
  status: checkStatus.nullable(),
  /** The result in words (what it saw, what is wrong, or why it could not look). */
  result: z.string().nullable(),
  checkedAt: z.string().nullable(),
  since: z.string().nullable(),
  /** When the last look that saw something was (an `unknown` keeps the one before). */
  resultAt: z.string().nullable(),
  /** What it saw: labelled lines (a certificate chain, a policy file, each MX host). */
  seen: z.array(z.object({ label: z.string(), text: z.string() })),
  /** SPF's lookup tree (the SPF check): each term with its cost, includes nested under their term. */
  spfTree: z.array(spfTreeNodeSchema).optional(),
  /** The blocklist answers (the DNSBL check), listings first. */
  blocklist: z.array(blocklistAnswerSchema).optional(),
  history: z.array(z.object({ status: checkStatus, words: z.string(), checkedAt: z.string() })),
});

/** A domain's Checks tab. */
export const domainLiveChecksSchema = z.object({
  /** False when the live checks are off (settings) or not run by this shell. */
  running: z.boolean(),
  checks: z.array(liveCheckViewSchema),
});

const noticeSchema = z.object({ check: z.string(), words: z.string(), since: z.string() });

/** Settings → Live checks (main/core/livechecks/liveCheckSettings.ts keeps them under `liveChecks`). */
export const liveCheckSettingsViewSchema = z.object({
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

/** Settings → Live checks: the settings, each kind and its counts, the notices, the pace. */
export const liveChecksStatusSchema = z.object({
  settings: liveCheckSettingsViewSchema,
  running: z.boolean(),
  kinds: z.array(
    z.object({
      check: z.string(),
      settingsKey: z.string(),
      label: z.string(),
      words: z.string(),
      enabled: z.boolean(),
      /** Days between looks at one target. */
      periodHours: z.number(),
      counts: z.object({
        ok: z.number(),
        problem: z.number(),
        not_applicable: z.number(),
        unknown: z.number(),
      }),
    }),
  ),
  /** What stops a kind on this network (port 25 blocked), said once. */
  notices: z.array(noticeSchema),
  connectionsLastMinute: z.number().int(),
  /** Why the extra CA file cannot be used, or null. */
  caProblem: z.string().nullable(),
});

/**
 * One look of a check that belongs to no domain — an account's API token expiry, the app's delivery channels
 * — as Settings → Live checks and `authwatch checks` show it.
 */
export const appLiveCheckSchema = liveCheckViewSchema
  .pick({ check: true, label: true, words: true, status: true, result: true, checkedAt: true, since: true })
  .extend({
    /** The account it looks at; null: the whole app (every channel, whichever account an alert is of). */
    account: z.object({ id: z.number().int(), label: z.string() }).nullable(),
    /** Off in Settings (this kind, or every live check). */
    enabled: z.boolean(),
    /** When it looks next (a past time: at the runner's next tick); null: never looked yet, or off. */
    nextAt: z.string().nullable(),
  });

/** The checks of the app and its accounts, beside the domains' own. */
export const appLiveChecksSchema = z.object({
  /** False when the live checks are off (settings) or not run by this shell. */
  running: z.boolean(),
  checks: z.array(appLiveCheckSchema),
});

/** What Settings may change (the rest keeps its value). */
export const updateLiveChecksArgs = liveCheckSettingsViewSchema.partial().strict();

export type DomainLiveChecks = z.infer<typeof domainLiveChecksSchema>;
export type BlocklistAnswer = z.infer<typeof blocklistAnswerSchema>;
export type LiveChecksStatus = z.infer<typeof liveChecksStatusSchema>;
export type AppLiveCheck = z.infer<typeof appLiveCheckSchema>;
export type AppLiveChecks = z.infer<typeof appLiveChecksSchema>;
