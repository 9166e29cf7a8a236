import { z } from 'zod';

/** Acknowledge one alert, with an optional note (who: the facade knows). */
export const acknowledgeAlertArgs = z.object({
  id: z.number().int(),
  note: z.string().trim().max(1000).optional(),
});

export const alertIdRef = z.object({ id: z.number().int() });

/** One step of an alert's acknowledgement history. */
export const ackEntrySchema = z.object({
  action: z.enum(['acknowledged', 'unacknowledged']),
  at: z.string(),
  actor: z.string(),
  note: z.string().nullable(),
});

/** The silence or maintenance window holding an alert now; each screen words its end in its own way. */
export const silenceHoldSchema = z.object({
  kind: z.enum(['silence', 'maintenance']),
  id: z.number().int(),
  label: z.string(),
  author: z.string(),
  endsAt: z.string(),
});

/** Where an alert stands in its lifecycle: the silence holding it (if any) and its acknowledgements. */
export const alertLifecycleSchema = z.object({
  silencedBy: silenceHoldSchema.nullable(),
  /** Held back from every channel; notified when the silence ends if still open. */
  held: z.boolean(),
  acknowledgements: z.array(ackEntrySchema),
});
