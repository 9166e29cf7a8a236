/**
 * The DNS watch over the bridge: a domain's records as DNS answers them now beside the service's view, and
 * the watch's settings, pace and freshness.
 */
import { z } from 'zod';
import { PROTOCOLS } from '../email-auth/protocols.ts';

const protocol = z.enum(PROTOCOLS);

/** One record as DNS sees it, and as the service's latest scan does. */
export const dnsWatchRecordSchema = z.object({
  protocol,
  name: z.string(),
  answer: z.enum(['present', 'invalid', 'absent', 'unknown']),
  value: z.string().nullable(),
  reason: z.string().nullable(),
  ttl: z.number().int().nullable(),
  resolver: z.string(),
  checkedAt: z.string(),
  state: z.enum(['connected', 'disconnected']).nullable(),
  stateSince: z.string().nullable(),
  /** The service's latest scan: connected or not (null: it says nothing of this protocol). */
  serviceConnected: z.boolean().nullable(),
});

export const disagreementSchema = z.object({
  protocol,
  dns: z.enum(['present', 'absent', 'invalid']),
  reason: z.string().nullable(),
  service: z.enum(['connected', 'disconnected']),
  since: z.string(),
  serviceScannedAt: z.string(),
});

/**
 * The watch's resolver cannot be trusted (NXDOMAIN for the DNS root, or for every watched domain): its
 * answers are no evidence until another resolver is picked. The reason in words, the resolver, since when.
 */
export const dnsUnavailableSchema = z.object({
  reason: z.string(),
  resolver: z.string(),
  since: z.string(),
});

/** A domain's DNS tab. */
export const domainDnsWatchSchema = z.object({
  /** False when the watch is off (settings) or not run by this shell. */
  watching: z.boolean(),
  records: z.array(dnsWatchRecordSchema),
  serviceScannedAt: z.string().nullable(),
  disagreements: z.array(disagreementSchema),
  /** Set while the watch's resolver cannot be trusted (the records' answers are then "unknown"). */
  unavailable: dnsUnavailableSchema.nullable(),
});

export const dnsWatchSettingsViewSchema = z.object({
  enabled: z.boolean(),
  servers: z.array(z.string()),
  floorSeconds: z.number().int(),
  ceilingSeconds: z.number().int(),
  ratePerSecond: z.number().int(),
});

/** The watch's settings, where its resolvers come from, its pace and freshness. */
export const dnsWatchStatusSchema = z.object({
  settings: dnsWatchSettingsViewSchema,
  running: z.boolean(),
  source: z.enum(['command line', 'settings', 'system']),
  servers: z.array(z.string()),
  records: z.number().int(),
  queriesPerSecond: z.number(),
  checksPerSecond: z.number(),
  /** Seconds a full round of every record takes at the rate cap. */
  roundSeconds: z.number(),
  /** When the pace was measured (by this process, or the one syncing the mirror); null: never. */
  paceAt: z.string().nullable(),
  oldestCheckedAt: z.string().nullable(),
  newestCheckedAt: z.string().nullable(),
  /** Records whose last answer was unknown (resolver trouble). */
  unknown: z.number().int(),
  /** Set while the watch's resolver cannot be trusted. */
  unavailable: dnsUnavailableSchema.nullable(),
});

/** What the Settings page may change (the rest keeps its value). */
export const updateDnsWatchArgs = dnsWatchSettingsViewSchema.partial().strict();

export type DomainDnsWatch = z.infer<typeof domainDnsWatchSchema>;
export type DnsWatchStatus = z.infer<typeof dnsWatchStatusSchema>;
export type DnsUnavailable = z.infer<typeof dnsUnavailableSchema>;
