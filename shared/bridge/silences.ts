import { z } from 'zod';

const severity = z.enum(['critical', 'warning', 'info']);
const name = z.string().trim().min(1).max(253);

/** What silences, maintenance windows and routes select alerts by; every matcher given must hold. */
export const alertMatchersSchema = z
  .object({
    accountId: z.number().int().optional(),
    group: name.optional(),
    domain: name.optional(),
    protocol: z.string().trim().min(1).max(40).optional(),
    rule: z.string().trim().min(1).max(80).optional(),
    rules: z.array(z.string().trim().min(1).max(80)).min(1).max(20).optional(),
    severities: z.array(severity).min(1).max(3).optional(),
  })
  .strict();

/** A silence as every surface shows it: what it matches (also in words), why, who, from when to when. */
export const silenceViewSchema = z.object({
  id: z.number().int(),
  matchers: alertMatchersSchema,
  /** "domain acme.example, rule protocol_disconnected". */
  matches: z.string(),
  reason: z.string(),
  author: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  createdAt: z.string(),
  expiredAt: z.string().nullable(),
  expiredBy: z.string().nullable(),
  state: z.enum(['pending', 'active', 'expired']),
  /** Open alerts it holds now (0 unless active). */
  holding: z.number().int().nonnegative(),
  /** The edit in the app that opened it ("Opened by your edit of DMARC at 14:02"), or null. */
  origin: z
    .object({ kind: z.literal('edit'), operation: z.string(), protocol: z.string(), summary: z.string() })
    .nullable(),
});
export type SilenceView = z.infer<typeof silenceViewSchema>;

/** A new silence (no id) or an edit of one; the start defaults to now. */
export const saveSilenceArgs = z.object({
  id: z.number().int().optional(),
  matchers: alertMatchersSchema,
  reason: z.string().max(500),
  startsAt: z.iso.datetime({ offset: true }).optional(),
  endsAt: z.iso.datetime({ offset: true }),
});

export const silenceRef = z.object({ id: z.number().int() });

/** The open alerts silenced now, counted once each: the tray and the window's header show this number. */
export const silencedCountSchema = z.object({ silenced: z.number().int().nonnegative() });
