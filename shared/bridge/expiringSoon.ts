/**
 * The portfolio's "Expiring soon" card across the bridge: certificates (MTA-STS policy host, MX STARTTLS),
 * VMCs and API tokens whose dates fall within the next 30 days (or have passed), soonest first, each with what
 * happens on that date in words. Built from what the live checks last saw (main/core/livechecks/expiringSoon.ts).
 */
import { z } from 'zod';

/** What expires. */
export const expiringKindSchema = z.enum(['mta_sts_certificate', 'mx_certificate', 'vmc', 'api_token']);

/** One dated thing. */
export const expiringEntrySchema = z.object({
  kind: expiringKindSchema,
  accountId: z.number().int(),
  accountLabel: z.string(),
  /** The domain it belongs to (its Checks tab); null for an account's API token (Settings → Accounts). */
  domainId: z.number().int().nullable(),
  fqdn: z.string().nullable(),
  /** What it is, in words: "MTA-STS certificate of mta-sts.acme.example", "API token “ci” of Acme". */
  what: z.string(),
  /** The date it stops being valid (ISO 8601). */
  notAfter: z.string(),
  /** Whole days left (negative once it has expired). */
  daysLeft: z.number().int(),
  /** "expires in 9 days", "expires tomorrow", "expired 2 days ago". */
  when: z.string(),
  /** What happens on that date: "senders can no longer fetch the MTA-STS policy of acme.example". */
  consequence: z.string(),
  /** critical: expired or within 7 days; warning: within 14; notice: later in the window. */
  severity: z.enum(['critical', 'warning', 'notice']),
});

/** The card: entries soonest first, and the window they were picked from. */
export const expiringSoonSchema = z.object({
  windowDays: z.number().int(),
  entries: z.array(expiringEntrySchema),
  /** False when no live check has looked at anything yet (the card says so instead of "nothing expires"). */
  checked: z.boolean(),
});

export type ExpiringKind = z.infer<typeof expiringKindSchema>;
export type ExpiringEntry = z.infer<typeof expiringEntrySchema>;
export type ExpiringSoon = z.infer<typeof expiringSoonSchema>;
