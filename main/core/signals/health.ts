import { z } from 'zod';
import { integer, timestamp } from './primitives.ts';

/** Booleans keyed by protocol; keys the interface does not name are kept. */
export const protocolFlagsSchema = z.looseObject({
  dmarc: z.boolean().optional(),
  spf: z.boolean().optional(),
  mta_sts: z.boolean().optional(),
  tls_rpt: z.boolean().optional(),
  bimi: z.boolean().optional(),
});

/** The `health` signal: GET /domains/{domain_id}/health (the domain's latest health snapshot). */
export const healthSnapshotSchema = z.looseObject({
  domain_id: integer.optional(),
  fqdn: z.string().optional(),
  source: z.string().nullish(),
  result: z.string().nullish(),
  mail_provider: z.string().nullish(),
  protocols: protocolFlagsSchema,
  protocols_passing: integer.optional(),
  total_protocols: integer.optional(),
  dmarc_record: z.string().nullish(),
  // A `live` fallback snapshot may have no scan time; the mirror then keys it by the fetch time.
  scanned_at: timestamp.nullish(),
});

/** One row of GET /domains/{domain_id}/health/history. */
export const healthHistoryRowSchema = z.looseObject({
  id: integer.optional(),
  result: z.string().nullish(),
  mail_provider: z.string().nullish(),
  protocols: protocolFlagsSchema,
  protocols_passing: integer.optional(),
  total_protocols: integer.optional(),
  scanned_at: timestamp,
});

/** The `health_history` signal: the rows of every fetched page, newest first as the interface returns them. */
export const healthHistorySchema = z.array(healthHistoryRowSchema);

export type HealthSnapshot = z.infer<typeof healthSnapshotSchema>;
export type HealthHistoryRow = z.infer<typeof healthHistoryRowSchema>;
