import { z } from 'zod';
import { alertRule } from './args.ts';
import { alertSchema, protocol, severity } from './results.ts';

/**
 * The alert inbox as incidents: alerts that belong together (one domain, one sync pass or one DNS change; a
 * threat and the score drop it caused) under one title, criticals first (main/core/alerts/incidents.ts).
 */
export const listIncidentsArgs = z
  .strictObject({
    accountId: z.number().int().positive().optional(),
    domainId: z.number().int().positive().optional(),
    /** Open (default): any alert unresolved; resolved: all resolved. */
    state: z.enum(['open', 'resolved', 'all']).optional(),
    /** Incidents with at least one alert of this rule. */
    rule: alertRule.optional(),
    severity: severity.optional(),
    /** Substring of the domain name. */
    domain: z.string().max(253).optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
  })
  .refine((a) => a.domainId === undefined || a.accountId !== undefined, {
    message: 'domainId needs accountId (domain ids are per account)',
  })
  .optional();

const recordSide = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('record'), value: z.string() }),
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('unknown') }),
]);
export type RecordSide = z.infer<typeof recordSide>;

/** A DNS alert's record before and after the change (the record's text, none published, or not known). */
const recordChangeSchema = z.object({ protocol, before: recordSide, after: recordSide });
export type RecordChange = z.infer<typeof recordChangeSchema>;

const incidentAlertSchema = alertSchema.extend({ recordChange: recordChangeSchema.nullable() });
export type IncidentAlert = z.infer<typeof incidentAlertSchema>;

export const incidentSchema = z.object({
  id: z.number(),
  accountId: z.number(),
  domainId: z.number().nullable(),
  fqdn: z.string().nullable(),
  severity,
  open: z.boolean(),
  title: z.string(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  alerts: z.array(incidentAlertSchema),
});
export type Incident = z.infer<typeof incidentSchema>;
