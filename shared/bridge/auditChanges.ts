import { z } from 'zod';

/**
 * Before → after of audit log entries, from what the mirror knows: the change journal of the app's own
 * edits (by request id) or, for changes made elsewhere, the record values the mirror observed around the
 * entry's time.
 */
const auditEntryRef = z.strictObject({
  requestId: z.string().max(200),
  method: z.string().max(16),
  path: z.string().max(2000),
  statusCode: z.number().int().nullable(),
  at: z.string().max(64).nullable(),
});

export const auditChangesArgs = z.strictObject({
  accountId: z.number().int().positive(),
  entries: z.array(auditEntryRef).max(1000),
});

export const fieldChangeSchema = z.object({
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});

export const auditChangeSchema = z.object({
  requestId: z.string(),
  /** journal: recorded when the app made the edit; observed: read off the record's values around the entry. */
  source: z.enum(['journal', 'observed']),
  changes: z.array(fieldChangeSchema),
});
export type AuditFieldChange = z.infer<typeof fieldChangeSchema>;
export type AuditChangeInfo = z.infer<typeof auditChangeSchema>;
