import { z } from 'zod';
import { integer } from './primitives.ts';

/** A sending source entry, shared by sending-services and failed-sources. */
export const sendingSourceSchema = z.looseObject({
  source_name: z.string(),
  total_count: integer.optional(),
  dmarc: z.looseObject({ pass: integer.optional(), fail: integer.optional() }).nullish(),
  compliance: z.number().nullish(),
  // compliant, partial or failing: the document's enum, checked with its other bounds (documentCheck.ts).
  status: z.string().nullish(),
  is_registered_threat: z.boolean().optional(),
});

/** The `failed_sources` signal: GET /domains/{domain_id}/failed-sources (ordered by failing volume). */
export const failedSourcesSchema = z.looseObject({
  domain_id: integer.optional(),
  fqdn: z.string().optional(),
  failed_sources: z.array(sendingSourceSchema),
});

/** The `sending_services` signal: GET /domains/{domain_id}/sending-services. */
export const sendingServicesSchema = z.looseObject({
  domain_id: integer.optional(),
  fqdn: z.string().optional(),
  services: z.array(sendingSourceSchema),
});

export type SendingSource = z.infer<typeof sendingSourceSchema>;
export type FailedSourcesPayload = z.infer<typeof failedSourcesSchema>;
