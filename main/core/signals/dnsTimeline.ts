import { z } from 'zod';
import { connectionWord, integer, timestamp } from './primitives.ts';

/** A DNS connect/disconnect event (timeline and changes). record_type is one of the five protocols. */
export const dnsEventSchema = z.looseObject({
  id: integer,
  record_type: z.string(),
  action: connectionWord,
  record_value: z.string().nullish(),
  status_before: connectionWord.nullish(),
  status_after: connectionWord.nullish(),
  occurred_at: timestamp,
});

/** The `dns_changes` signal: the events of every fetched page of GET /domains/{domain_id}/dns/changes. */
export const dnsChangesSchema = z.array(dnsEventSchema);

/** Per-protocol summary of the timeline. */
export const dnsTimelineSummaryEntrySchema = z.looseObject({
  current_status: connectionWord.nullish(),
  last_connected: timestamp.nullish(),
  last_disconnected: timestamp.nullish(),
  connection_count: integer.optional(),
  disconnection_count: integer.optional(),
});

/** The `dns_timeline` signal: GET /domains/{domain_id}/dns/timeline. */
export const dnsTimelineSchema = z.looseObject({
  domain_id: integer.optional(),
  fqdn: z.string().optional(),
  summary: z.record(z.string(), dnsTimelineSummaryEntrySchema).optional(),
  events: z.array(dnsEventSchema),
});

/** One protocol's entry of GET .../dns/current (spf adds lookup_count). */
export const dnsCurrentEntrySchema = z.looseObject({
  current_status: connectionWord.nullish(),
  verified: z.boolean().nullish(),
  status: z.string().nullish(),
  last_connected: timestamp.nullish(),
  last_disconnected: timestamp.nullish(),
  record_value: z.string().nullish(),
  lookup_count: integer.nullish(),
});

/** The `dns_current` signal: GET /domains/{domain_id}/dns/current. */
export const dnsCurrentSchema = z.looseObject({
  domain_id: integer.optional(),
  fqdn: z.string().optional(),
  protocols: z.record(z.string(), dnsCurrentEntrySchema),
});

/** One row of GET .../dns/history (dmarc or spf; spf rows add lookup_count). */
export const dnsHistoryRowSchema = z.looseObject({
  record_type: z.string(),
  record_value: z.string().nullish(),
  occurred_at: timestamp,
  lookup_count: integer.nullish(),
});

/** The `dns_history` signal: the rows of every fetched page of GET .../dns/history. */
export const dnsHistorySchema = z.array(dnsHistoryRowSchema);

/** One snapshot row of GET .../dns/snapshots. */
export const dnsSnapshotRowSchema = z.looseObject({
  id: integer,
  record_value: z.string().nullish(),
  occurred_at: timestamp,
  lookup_count: integer.nullish(),
});

/** The `dns_snapshots` signal: GET /domains/{domain_id}/dns/snapshots (separate dmarc and spf arrays). */
export const dnsSnapshotsSchema = z.looseObject({
  domain_id: integer.optional(),
  fqdn: z.string().optional(),
  dmarc: z.array(dnsSnapshotRowSchema).optional(),
  spf: z.array(dnsSnapshotRowSchema).optional(),
});

export type DnsEvent = z.infer<typeof dnsEventSchema>;
