import { z } from 'zod';

/**
 * An account's weekly digest schedule as the renderer and the command line see it: when (a weekday and a
 * time in a zone), by which email channel, and what happened to the last one.
 */
export const digestViewSchema = z.object({
  accountId: z.number().int(),
  account: z.string(),
  channelId: z.number().int(),
  channel: z.string(),
  /** 0 = Sunday … 6 = Saturday. */
  weekday: z.number().int().min(0).max(6),
  hour: z.number().int().min(0).max(23),
  minute: z.number().int().min(0).max(59),
  timeZone: z.string(),
  /** "Mondays at 08:00 (Europe/Berlin)". */
  when: z.string(),
  /** The next slot (ISO), or the slot owed now when one is waiting to go. */
  nextAt: z.string(),
  lastSentAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
});
export type DigestView = z.infer<typeof digestViewSchema>;

export const saveDigestArgs = z.object({
  accountId: z.number().int(),
  channelId: z.number().int(),
  weekday: z.number().int().min(0).max(6),
  hour: z.number().int().min(0).max(23),
  minute: z.number().int().min(0).max(59),
  timeZone: z.string().min(1).max(100),
});

export const digestRef = z.object({ accountId: z.number().int() });
