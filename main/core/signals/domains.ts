import { z } from 'zod';
import { integer } from './primitives.ts';

/** One visible domain of GET /domains (the list envelope's data items). Only id and fqdn are relied on. */
export const domainListItemSchema = z.looseObject({
  id: integer,
  fqdn: z.string().min(1),
});

/** The `domains` signal: every page of GET /domains concatenated, i.e. the account's complete domain list. */
export const domainsSchema = z.array(domainListItemSchema);
export type DomainsPayload = z.infer<typeof domainsSchema>;
