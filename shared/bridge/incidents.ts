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
  /** The id of its first alert (stable: later alerts join, the first never changes). */
  id: z.number(),
  accountId: z.number(),
  /** Remote domain id, null for account-level incidents. */
  domainId: z.number().nullable(),
  fqdn: z.string().nullable(),
  /** The loudest of its open alerts (of all its alerts once none is open). */
  severity,
  /** True while any of its alerts is unresolved. */
  open: z.boolean(),
  /** What happened, in words ("DMARC and SPF disconnected; score dropped from 8.1 to 6.9"). */
  title: z.string(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  /** Its alerts, criticals first, then in the order they were raised. */
  alerts: z.array(incidentAlertSchema),
});
export type Incident = z.infer<typeof incidentSchema>;

/** An incident over alerts of type A: main groups the mirror's rows, then adds each one's record change. */
export type IncidentOf<A> = Omit<Incident, 'alerts'> & { alerts: A[] };
