import { z } from 'zod';

/**
 * A domain's sending sources over time: every sender of the latest answers (failing ones marked, registered
 * threats first) with its volume and compliance per poll, from the mirror's history of polls.
 */
const id = z.number().int().positive();

export const domainSendersArgs = z.strictObject({ accountId: id, domainId: id });
export const senderHistoryArgs = z.strictObject({
  accountId: id,
  domainId: id,
  source: z.string().min(1).max(512),
});

export const senderPollSchema = z.object({
  kind: z.enum(['sending', 'failed']),
  at: z.string(),
  lastAt: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  total: z.number().nullable(),
  dmarcPass: z.number().nullable(),
  dmarcFail: z.number().nullable(),
  compliance: z.number().nullable(),
  status: z.string().nullable(),
  threat: z.boolean(),
});
export type SenderPoll = z.infer<typeof senderPollSchema>;

export const senderSummarySchema = z.object({
  name: z.string(),
  failing: z.boolean(),
  threat: z.boolean(),
  status: z.string().nullable(),
  total: z.number().nullable(),
  dmarcPass: z.number().nullable(),
  dmarcFail: z.number().nullable(),
  compliance: z.number().nullable(),
  trend: z.array(senderPollSchema),
});
export type SenderSummary = z.infer<typeof senderSummarySchema>;
