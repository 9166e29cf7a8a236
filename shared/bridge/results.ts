import { z } from 'zod';
import { DMARC_POLICIES } from '../email-auth/dmarcRecord.ts';
import { PROTOCOLS } from '../email-auth/protocols.ts';
import {
  storedDashboardCache,
  storedDnsCurrent,
  storedDnsSummary,
  storedHealth,
  storedScore,
  storedSource,
  storedTlsFailures,
  storedTlsRpt,
} from './storedAnswers.ts';
import { EDIT_OPERATION_NAMES, type EditOperationName } from './editOperationNames.ts';
import type { EditData } from './editTypes.ts';
import { alertRule, appPreferencesSchema, syncSettingsSchema } from './args.ts';
import { PROTOCOL_STATES, VERDICT_LEVELS } from './statusLevels.ts';
import { dnsUnavailableSchema } from './dnsWatch.ts';

/**
 * What every bridge method answers, as schemas: main validates each result before it crosses to the
 * renderer (a bug in main shows as a clear bridge error, never as a screen rendering garbage), and the
 * renderer's types are inferred from them. The facade's methods are typed by the contract, so the compiler
 * holds the engine's own types (main/core/mirror/types.ts) to these.
 */
const iso = z.string();
const isoOrNull = iso.nullable();
const isObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A protocol's key as the interface spells it (the list is defined once, in shared/email-auth). */
export const protocol = z.enum(PROTOCOLS);

/**
 * A polled signal's name. The list lives in one place, main's signal registry (main/core/signals/registry.ts,
 * one definition per signal): the bridge carries the name as a string, main only ever sends names from that
 * registry, and the words for people come with it (`words` below), so adding a signal touches nothing here.
 */
export const signalName = z.string().regex(/^[a-z][a-z0-9_]*$/);

export const severity = z.enum(['critical', 'warning', 'info']);
export type Severity = z.infer<typeof severity>;
export type AlertRuleName = z.infer<typeof alertRule>;

const protocolMap = z.partialRecord(protocol, z.boolean());

export const syncErrorSchema = z.object({
  status: z.number(),
  code: z.string(),
  message: z.string(),
  requestId: z.string(),
  retryable: z.boolean(),
  missingScope: z.string().nullable(),
  at: iso,
});

export const signalAgeSchema = z.object({
  lastSuccessAt: isoOrNull,
  ageSeconds: z.number().nullable(),
  lastError: syncErrorSchema.nullable(),
});

/** The sources of status facts (main/core/status/evidence.ts gives each its words and rank). */
export const EVIDENCE_SOURCE_NAMES = ['service_scan', 'dns_status', 'dns_event', 'dns_watch'] as const;
/** Name of an evidence source. */
export type EvidenceSource = (typeof EVIDENCE_SOURCE_NAMES)[number];

/**
 * What an observation says about a record:
 * - valid: published and passing; invalid: published but failing the protocol's checks;
 * - absent: no record published (never set up, or removed);
 * - published: a record is published, validity not known (a "connected" event);
 * - not_passing: does not pass, cause not known (a scan's false flag: absent or invalid).
 */
const finding = z.enum(['valid', 'invalid', 'absent', 'published', 'not_passing']);
export type Finding = z.infer<typeof finding>;

/** Where a status fact came from and when, for "service scan, 14:02" / "DNS via 127.0.0.1:5353, 14:02". */
const evidenceRefSchema = z.object({
  source: z.enum(EVIDENCE_SOURCE_NAMES),
  /** The source in words, with who answered when it says. */
  label: z.string(),
  at: iso,
});
export type EvidenceRef = z.infer<typeof evidenceRefSchema>;

export { VERDICT_LEVELS, type ProtocolState, type VerdictLevel } from './statusLevels.ts';

const protocolViewSchema = z.object({
  protocol,
  label: z.string(),
  required: z.boolean(),
  state: z.enum(PROTOCOL_STATES),
  /** What is true in a few words: "passing", "disconnected", "invalid record", "not set up"… */
  words: z.string(),
  /** What the newest evidence says, merged across sources. */
  finding: finding.nullable(),
  /** The newest record text any source carried (null: observed absent; null too when never seen). */
  record: z.string().nullable(),
  /** The newest evidence: where the state came from and how old it is. */
  evidence: evidenceRefSchema.nullable(),
  /** A successful write whose effect the evidence has not shown yet (a confirmed change shows nothing). */
  pending: z
    .object({
      summary: z.string(),
      changedAt: iso,
      /** waiting: no newer evidence yet; contradicted: a later check still shows something else. */
      state: z.enum(['waiting', 'contradicted']),
      /** "waiting for the next check" / "the service scan still shows p=none". */
      words: z.string(),
      /** The evidence that contradicts it. */
      evidence: evidenceRefSchema.nullable(),
    })
    .nullable(),
});
export type ProtocolView = z.infer<typeof protocolViewSchema>;

/** A domain's one status (main/core/status): every surface shows this, never a word of its own. */
export const domainStatusSchema = z.object({
  /** Every protocol of the list, each once. */
  protocols: z.record(protocol, protocolViewSchema),
  /** The domain's verdict: the worst thing true about it, in words. */
  verdict: z.object({
    level: z.enum(VERDICT_LEVELS),
    /** The first reason, or the all-clear: "Threat sending as this domain", "SPF disconnected". */
    words: z.string(),
    /** Everything wrong, worst first. */
    reasons: z.array(z.string()),
  }),
  /** The DMARC policy of the newest DMARC record any source carried, or null. */
  dmarc: z
    .object({
      policy: z.enum(DMARC_POLICIES),
      /** The subdomain policy (p when sp is not set). */
      subdomainPolicy: z.enum(DMARC_POLICIES),
      pct: z.number(),
    })
    .nullable(),
  /** Counts behind the protocols line ("2 of 2 required pass · 1 of 3 optional set up"). */
  counts: z.object({
    requiredPassing: z.number(),
    requiredTotal: z.number(),
    /** Optional protocols set up and passing. */
    optionalPassing: z.number(),
    optionalFailing: z.number(),
    optionalTotal: z.number(),
    unknown: z.number(),
  }),
  /** The protocols in one line, the same everywhere (never "5 of 5 pass" beside "4 of 5"). */
  protocolsText: z.string(),
  /** The newest evidence of the domain, whatever the protocol: how old its status is. */
  newest: evidenceRefSchema.nullable(),
});
export type DomainStatusView = z.infer<typeof domainStatusSchema>;

/**
 * A row of the window's overview: what the rows and the headline show. How fresh the data is comes as the
 * newest success of any signal (`dataAt`); each signal's age is the mirror's (MirrorOverviewRow)
 * and the domain page's.
 */
export const overviewRowSchema = z.object({
  accountId: z.number(),
  accountLabel: z.string(),
  domainId: z.number(),
  fqdn: z.string(),
  /** When the domain left the account's list (only when removed domains are asked for). */
  removedAt: isoOrNull,
  group: z.object({ id: z.number(), name: z.string() }).nullable(),
  status: z.string().nullable(),
  health: z
    .object({
      protocols: protocolMap,
      passing: z.number().nullable(),
      total: z.number().nullable(),
      result: z.string().nullable(),
      dmarcRecord: z.string().nullable(),
      scannedAt: iso,
    })
    .nullable(),
  score: z
    .object({
      score: z.number(),
      maxScore: z.number().nullable(),
      interpretation: z.string().nullable(),
      computedAt: iso,
    })
    .nullable(),
  openAlerts: z.number(),
  posture: domainStatusSchema,
  /** The newest success among the domain's signals: how old its data is (null: nothing fetched yet). */
  dataAt: isoOrNull,
  lastError: syncErrorSchema.extend({ signal: signalName }).nullable(),
});
export type OverviewRow = z.infer<typeof overviewRowSchema>;

/** A row of the overview as the mirror reads it (engine, CLI, export, metrics): with each signal's age. */
export type MirrorOverviewRow = Omit<OverviewRow, 'dataAt'> & {
  data: Partial<Record<z.infer<typeof signalName>, z.infer<typeof signalAgeSchema>>>;
};

export const alertSchema = z.object({
  id: z.number(),
  accountId: z.number(),
  rule: alertRule,
  severity,
  domainId: z.number().nullable(),
  fqdn: z.string().nullable(),
  title: z.string(),
  body: z.string(),
  dedupeKey: z.string(),
  firstSeenAt: iso,
  lastSeenAt: iso,
  resolvedAt: isoOrNull,
  acknowledgedAt: isoOrNull,
  snoozedUntil: isoOrNull,
  deliveredAt: isoOrNull,
  suppressed: z.literal('muted').nullable(),
  /** What the alert's rule declares its alerts carry (main checks each raise against it): JSON values. */
  details: z.record(z.string(), z.json()),
  /** Why it ended: its cause ended, its domain left the account, the user acknowledged it, or a notice. */
  endReason: z.enum(['cause_ended', 'domain_removed', 'acknowledged', 'notice']).nullable(),
  endedAt: isoOrNull,
});
export type Alert = z.infer<typeof alertSchema>;

export const syncStateSchema = z.object({
  accountId: z.number(),
  domainId: z.number().nullable(),
  fqdn: z.string().nullable(),
  signal: signalName,
  lastSuccessAt: isoOrNull,
  lastAttemptAt: isoOrNull,
  lastError: syncErrorSchema.nullable(),
  consecutiveFailures: z.number(),
  nextDueAt: isoOrNull,
  periodSeconds: z.number(),
});

const sourcesWindow = z
  .object({
    window: z.object({ start: z.string(), end: z.string() }).nullable(),
    fetchedAt: iso,
    sources: z.array(storedSource),
  })
  .nullable();

/** A domain of an account as the mirror knows it (domainId is the interface's id). */
export const mirrorDomainSchema = z.object({
  accountId: z.number(),
  domainId: z.number(),
  fqdn: z.string(),
  firstSeenAt: iso,
  lastSeenAt: iso,
  /** When the domain left the account's list (its history is kept), or null. */
  removedAt: isoOrNull,
});

export const domainDetailSchema = z.object({
  domain: mirrorDomainSchema,
  health: storedHealth.nullable(),
  score: storedScore.nullable(),
  /** Keyed by protocol (or another record type the service names). */
  dnsCurrent: z.record(z.string(), storedDnsCurrent),
  dnsSummary: z.record(z.string(), storedDnsSummary),
  failedSources: sourcesWindow,
  sendingServices: sourcesWindow,
  tlsRpt: z
    .object({ config: storedTlsRpt.nullable(), failures: storedTlsFailures.nullable(), fetchedAt: iso })
    .nullable(),
  dashboardCache: storedDashboardCache.nullable(),
  /**
   * Signals defined with extraSignal() (main/core/signals/extraSignal.ts), newest value in words: the Summary
   * tab lists them as they come, so a new one needs no screen code.
   */
  extraSignals: z.array(
    z.object({ signal: signalName, label: z.string(), words: z.string(), text: z.string(), fetchedAt: iso }),
  ),
  syncStates: z.array(syncStateSchema),
  openAlerts: z.array(alertSchema),
  muted: z.object({ until: isoOrNull }).nullable(),
  posture: domainStatusSchema,
});
export type DomainDetail = z.infer<typeof domainDetailSchema>;

export const HISTORY_KINDS = ['health', 'score', 'mail_volume', 'dns_events'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

const healthPoint = z.object({
  at: iso,
  result: z.string().nullable(),
  protocols: protocolMap,
  passing: z.number().nullable(),
  total: z.number().nullable(),
});
const scorePoint = z.object({ at: iso, score: z.number(), kind: z.enum(['measured', 'derived']) });
const count = z.number().nullable();
const mailVolumePoint = z.object({
  date: z.string(),
  total: count,
  delivered: count,
  quarantined: count,
  rejected: count,
  dmarcPass: count,
  dmarcFail: count,
});
const dnsEventPoint = z.object({
  eventId: z.number(),
  recordType: z.string(),
  action: z.string(),
  recordValue: z.string().nullable(),
  statusBefore: z.string().nullable(),
  statusAfter: z.string().nullable(),
  occurredAt: iso,
});
/** One row schema per history kind. */
export const historyRowSchemas = {
  health: healthPoint,
  score: scorePoint,
  mail_volume: mailVolumePoint,
  dns_events: dnsEventPoint,
} as const;
export type HistoryRows = { [K in HistoryKind]: z.infer<(typeof historyRowSchemas)[K]> };
export type ScorePoint = HistoryRows['score'];
export const historyResultSchema = z.union([
  z.array(healthPoint),
  z.array(scorePoint),
  z.array(mailVolumePoint),
  z.array(dnsEventPoint),
]);

export const alertSettingsSchema = z.object({
  scoreStep: z.number(),
  scoreFloor: z.number().nullable(),
  quietHours: z.object({ startHour: z.number(), endHour: z.number() }).nullable(),
  timeZone: z.string().nullable(),
  /** Whether quiet hours hold critical alerts too (the user's explicit choice; off by default). */
  quietHoldsCriticals: z.boolean(),
  /** Minutes an edit made in the app silences the alerts it is expected to cause (0: none). */
  editSilenceMinutes: z.number(),
});
export type SyncSettings = z.infer<typeof syncSettingsSchema>;
export type AppPreferences = z.infer<typeof appPreferencesSchema>;

export const settingsSchema = z.object({
  alerts: alertSettingsSchema,
  sync: syncSettingsSchema,
  app: appPreferencesSchema,
  /** When notifications are paused until (ISO), or null. */
  notificationsPausedUntil: isoOrNull,
});
export type Settings = z.infer<typeof settingsSchema>;

/** An account as shells see it: never the token, only whether one is stored. */
export const accountViewSchema = z.object({
  id: z.number(),
  label: z.string(),
  baseUrl: z.string(),
  createdAt: iso,
  pausedReason: z.string().nullable(),
});
export type AccountView = z.infer<typeof accountViewSchema>;

/** Who a token belongs to, from GET /auth/me (all but the scopes may be null: the shape is inferred). */
export const accountIdentitySchema = z.object({
  userName: z.string().nullable(),
  userEmail: z.string().nullable(),
  teamName: z.string().nullable(),
  plan: z.string().nullable(),
  isTeamOwner: z.boolean().nullable(),
  tokenName: z.string().nullable(),
  scopes: z.array(z.string()),
  tokenExpiresAt: z.string().nullable(),
});
export type AccountIdentity = z.infer<typeof accountIdentitySchema>;

export const tokenCheckSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), identity: accountIdentitySchema }),
  z.object({ ok: z.literal(false), code: z.string(), status: z.number(), message: z.string() }),
]);
export type TokenCheck = z.infer<typeof tokenCheckSchema>;

export const accountBlockReason = z.enum([
  'token_invalid',
  'token_missing',
  'api_plan_not_eligible',
  'api_access_disabled',
]);

const passErrorSchema = z.object({
  domainId: z.number().nullable(),
  fqdn: z.string().nullable(),
  signal: signalName,
  code: z.string(),
  message: z.string(),
  missingScope: z.string().nullable().optional(),
});
export const passResultSchema = z.object({
  accountId: z.number(),
  fetched: z.number(),
  failed: z.number(),
  requestsSpent: z.number(),
  errors: z.array(passErrorSchema),
  /** Why the pass stopped with the account paused, or null. */
  paused: accountBlockReason.nullable(),
  rateLimitedUntil: z.number().nullable(),
  /** Jobs a pass did not reach (paused, rate limited, aborted): not counted as synced. */
  heldBack: z.array(
    z.object({ domainId: z.number().nullable(), fqdn: z.string().nullable(), signal: signalName }),
  ) /** Why the pass stopped early (rate limited, service unreachable, time limit), in one plain line, or null. */,
  stopped: z.string().nullable(),
});

export const accountSyncStatusSchema = z.object({
  accountId: z.number(),
  label: z.string(),
  baseUrl: z.string(),
  state: z.enum(['active', 'paused', 'rate_limited']),
  pausedReason: z.string().nullable(),
  rateLimitedUntil: z.number().nullable(),
  budget: z.object({
    available: z.number(),
    capacity: z.number(),
    headroom: z.number(),
    ratePerMinute: z.number(),
  }),
  demandPerMinute: z.number(),
  capacityPerMinute: z.number(),
  stretchFactor: z.number(),
  periods: z.partialRecord(
    signalName,
    z.object({ targetSeconds: z.number(), effectiveSeconds: z.number(), jobs: z.number() }),
  ),
  /** What each signal of periods watches, in words for people (from the signal's definition in main). */
  words: z.partialRecord(signalName, z.string()),
  backfill: z.object({
    domainsDone: z.number(),
    domainsTotal: z.number(),
    /** Domains whose health and failed sources were read once (absent from a main older than it). */
    domainsWatched: z.number().optional(),
    complete: z.boolean(),
    /** While the backfill waits for the account's first day to end, when it starts (absent from older mains). */
    startsAt: isoOrNull.optional(),
  }),
  requestsSpent: z.number(),
  lastSuccessAt: isoOrNull,
  nextDueAt: isoOrNull,
  errors: z.array(passErrorSchema),
});
export const syncStatusSchema = z.object({
  running: z.boolean(),
  accounts: z.array(accountSyncStatusSchema),
  /** The DNS watch's resolver cannot be trusted: the sync line says so once (null: it can, or no watch). */
  dnsUnavailable: dnsUnavailableSchema.nullable(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

/**
 * The `data` of an edit's answer, typed per operation by the contract's `edit` (shared/bridge/editTypes.ts).
 * Every write of the interface answers one object (null: the service sent no body); main checked its values
 * against the document before it crosses.
 */
const editData = z.custom<EditData<EditOperationName>>(isObject, 'expected an object (the answer’s data)');

export const editResultSchema = z.object({
  operation: z.enum(EDIT_OPERATION_NAMES),
  status: z.number(),
  requestId: z.string(),
  data: editData.nullable(),
  repolled: z.array(signalName),
});

/** Edit O's result. */
export type EditResult<O extends EditOperationName = EditOperationName> = Omit<
  z.infer<typeof editResultSchema>,
  'operation' | 'data'
> & { operation: O; data: EditData<O> | null };

export const editOperationInfoSchema = z.object({
  name: z.enum(EDIT_OPERATION_NAMES),
  method: z.string(),
  path: z.string(),
  summary: z.string(),
  takesBody: z.boolean(),
  affects: z.array(signalName),
});
export type EditOperationInfo = z.infer<typeof editOperationInfoSchema>;

export const exportResultSchema = z.object({
  filename: z.string(),
  mimeType: z.string(),
  content: z.string(),
  rows: z.number(),
});

export const connectivitySchema = z.object({
  accountId: z.number(),
  online: z.boolean(),
  /** The last time any request of the account succeeded (ISO), or null. */
  lastSuccessAt: isoOrNull,
  /** The last network failure's words when offline. */
  message: z.string().nullable(),
});
export type Connectivity = z.infer<typeof connectivitySchema>;
