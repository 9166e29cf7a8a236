import type { z } from 'zod';
import { dashboardCacheSchema } from './dashboardCache.ts';
import {
  dnsChangesSchema,
  dnsCurrentSchema,
  dnsHistorySchema,
  dnsSnapshotsSchema,
  dnsTimelineSchema,
} from './dnsTimeline.ts';
import { domainsSchema } from './domains.ts';
import { healthHistorySchema, healthSnapshotSchema } from './health.ts';
import { mailVolumeSchema } from './mailVolume.ts';
import { scoreHistorySchema, securityScoreSchema } from './securityScore.ts';
import { failedSourcesSchema, sendingServicesSchema } from './sendingSources.ts';
import { tlsRptSummarySchema } from './tlsRpt.ts';

/** Every mirrored signal's payload schema (the `data` of its v1 response), keyed by signal name. */
export const SIGNAL_SCHEMAS = {
  domains: domainsSchema,
  health: healthSnapshotSchema,
  health_history: healthHistorySchema,
  security_score: securityScoreSchema,
  score_history: scoreHistorySchema,
  failed_sources: failedSourcesSchema,
  sending_services: sendingServicesSchema,
  mail_volume: mailVolumeSchema,
  dns_changes: dnsChangesSchema,
  dns_timeline: dnsTimelineSchema,
  dns_current: dnsCurrentSchema,
  dns_history: dnsHistorySchema,
  dns_snapshots: dnsSnapshotsSchema,
  tls_rpt: tlsRptSummarySchema,
  dashboard_cache: dashboardCacheSchema,
} as const;

/** Name of a mirrored signal. */
export type SignalName = keyof typeof SIGNAL_SCHEMAS;

/** The decoded payload type of each signal. */
export type SignalPayloads = { [S in SignalName]: z.infer<(typeof SIGNAL_SCHEMAS)[S]> };

/** The decoded payload type of signal S. */
export type SignalPayload<S extends SignalName> = SignalPayloads[S];

/** All signal names, in catalog order. */
export const SIGNAL_NAMES = Object.keys(SIGNAL_SCHEMAS) as SignalName[];

/** What the scheduler needs to know about a signal. */
export interface SignalMeta {
  name: SignalName;
  /**
   * Path template relative to the base URL; `{domain_id}` is the remote domain id. For `tls_rpt` this is the
   * configuration call; see `parts`.
   */
  path: string;
  /**
   * When present, the payload is composed from several calls: the poller GETs each path and passes
   * `{ [key]: data }` (a part that answered 404 is passed as null).
   */
  parts?: Readonly<Record<string, string>>;
  /** `domain`: fetched once per domain (domainId required when writing); `account`: once per account. */
  per: 'domain' | 'account';
  /** The v1 scope the endpoint needs (an insufficient_scope error names it as the missing scope). */
  scope: 'domains:read';
  /** 1 = most urgent. The planner multiplies staleness by a weight derived from it. */
  priority: 1 | 2 | 3 | 4 | 5;
  /** Target refresh period in seconds once the signal is being tracked. */
  periodSeconds: number;
  /** True when the signal is fetched first when the user opens a domain (then every periodSeconds). */
  onDemand: boolean;
  /** True when the endpoint is a page/limit list: the poller concatenates every page's data items. */
  paginated: boolean;
  /** True when the endpoint accepts start_date/end_date (the write may then carry a window). */
  windowed: boolean;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
// Signals nobody alerts on are fetched when a domain is opened, then kept warm slowly.
const SLOW = 6 * HOUR;

function meta(
  name: SignalName,
  path: string,
  rest: Partial<Omit<SignalMeta, 'name' | 'path'>> & Pick<SignalMeta, 'priority' | 'periodSeconds'>,
): SignalMeta {
  return {
    name,
    path,
    per: 'domain',
    scope: 'domains:read',
    onDemand: false,
    paginated: false,
    windowed: false,
    ...rest,
  };
}

/** Scheduling metadata of every signal, keyed by name. */
export const SIGNALS: Readonly<Record<SignalName, SignalMeta>> = {
  domains: meta('domains', '/domains', {
    per: 'account',
    priority: 1,
    periodSeconds: 60 * MINUTE,
    paginated: true,
  }),
  dns_changes: meta('dns_changes', '/domains/{domain_id}/dns/changes', {
    priority: 1,
    periodSeconds: 5 * MINUTE,
    paginated: true,
    windowed: true,
  }),
  health: meta('health', '/domains/{domain_id}/health', { priority: 2, periodSeconds: 15 * MINUTE }),
  failed_sources: meta('failed_sources', '/domains/{domain_id}/failed-sources', {
    priority: 3,
    periodSeconds: 60 * MINUTE,
    windowed: true,
  }),
  security_score: meta('security_score', '/domains/{domain_id}/security-score', {
    priority: 3,
    periodSeconds: 60 * MINUTE,
  }),
  health_history: meta('health_history', '/domains/{domain_id}/health/history', {
    priority: 5,
    periodSeconds: SLOW,
    onDemand: true,
    paginated: true,
    windowed: true,
  }),
  score_history: meta('score_history', '/domains/{domain_id}/security-score/history', {
    priority: 5,
    periodSeconds: SLOW,
    onDemand: true,
    windowed: true,
  }),
  sending_services: meta('sending_services', '/domains/{domain_id}/sending-services', {
    priority: 4,
    periodSeconds: SLOW,
    onDemand: true,
    windowed: true,
  }),
  mail_volume: meta('mail_volume', '/domains/{domain_id}/mail-volume', {
    priority: 4,
    periodSeconds: SLOW,
    onDemand: true,
    windowed: true,
  }),
  dns_timeline: meta('dns_timeline', '/domains/{domain_id}/dns/timeline', {
    priority: 4,
    periodSeconds: SLOW,
    onDemand: true,
    windowed: true,
  }),
  dns_current: meta('dns_current', '/domains/{domain_id}/dns/current', {
    priority: 4,
    periodSeconds: SLOW,
    onDemand: true,
  }),
  dns_history: meta('dns_history', '/domains/{domain_id}/dns/history', {
    priority: 5,
    periodSeconds: SLOW,
    onDemand: true,
    paginated: true,
    windowed: true,
  }),
  dns_snapshots: meta('dns_snapshots', '/domains/{domain_id}/dns/snapshots', {
    priority: 5,
    periodSeconds: SLOW,
    onDemand: true,
    windowed: true,
  }),
  tls_rpt: meta('tls_rpt', '/domains/{domain_id}/tls-rpt', {
    priority: 5,
    periodSeconds: SLOW,
    onDemand: true,
    parts: { config: '/domains/{domain_id}/tls-rpt', failures: '/domains/{domain_id}/tls-rpt/failures' },
  }),
  dashboard_cache: meta('dashboard_cache', '/domains/{domain_id}/dashboard-cache', {
    priority: 5,
    periodSeconds: SLOW,
    onDemand: true,
    windowed: true,
  }),
};

/** True when `name` is a mirrored signal. */
export function isSignalName(name: string): name is SignalName {
  return Object.hasOwn(SIGNAL_SCHEMAS, name);
}
