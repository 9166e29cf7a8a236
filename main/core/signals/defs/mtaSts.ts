import { z } from 'zod';
import { extraSignal } from '../extraSignal.ts';
import { declareSignal } from '../signalDeclaration.ts';

const MODES = ['none', 'testing', 'enforce'] as const;
/** The policy mode of the hosted MTA-STS policy, or null when MTA-STS is not set up (the call answers 404). */
export type MtaStsMode = (typeof MODES)[number] | null;

/** GET /domains/{id}/mta-sts, as a part so a 404 (not provisioned) is null rather than a failed read. */
const mtaStsSchema = z
  .object({
    policy: z
      .object({ mode: z.enum(MODES), max_age: z.number(), mx: z.array(z.string()) })
      .loose()
      .nullable(),
  })
  .loose();

/**
 * The MTA-STS policy mode, polled every two days (the mode is edited by people, rarely): in the context tier,
 * so it never takes budget from the alert-bearing reads. At 1,000 domains that is 0.35 reads a minute (0.6 %
 * of the 60/min budget); with BIMI readiness weekly, the two extra checks stay under 1 %. Its rule:
 * alerts/rules/mtaStsLowered.ts.
 */
const mtaSts = extraSignal('mta_sts', {
  scope: 'domains:read',
  fetch: { path: '/domains/{domain_id}/mta-sts', parts: { policy: '/domains/{domain_id}/mta-sts' } },
  schema: mtaStsSchema,
  plan: { role: 'core', tier: 'context', priority: 5, periodSeconds: 2 * 24 * 3600 },
  words: 'MTA-STS policy mode',
  value: (payload): MtaStsMode => payload.policy?.mode ?? null,
  shown: { label: 'MTA-STS policy', text: (mode) => mode ?? 'not set up' },
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    mta_sts: typeof mtaSts;
  }
}

export default declareSignal('mta_sts', mtaSts);
