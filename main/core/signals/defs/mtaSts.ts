import { z } from 'zod';
import { domainCondition } from '../../alerts/transition.ts';
import type { ExtraReading } from '../definition.ts';
import { extraSignal } from '../../mirror/extraSignal.ts';
import { declareSignal } from '../signalDeclaration.ts';

const MODES = ['none', 'testing', 'enforce'] as const;
/** The policy mode of the hosted MTA-STS policy, or null when MTA-STS is not set up (the call answers 404). */
type MtaStsMode = (typeof MODES)[number] | null;
/** One read of it, as its rule compares them. */
type MtaStsReading = NonNullable<ExtraReading<MtaStsMode>>;

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
 * The MTA-STS policy mode as the service hosts it, polled every three days (the mode is edited by people,
 * rarely, and the live check mta_sts_policy reads the published policy file itself daily, with no request of
 * the budget): in the context tier,
 * so it never takes budget from the alert-bearing reads (what that tier costs is computed from the plans by
 * test/unit/core/signals/contextBudget.test.ts). Its rule is below.
 */
const mtaSts = extraSignal('mta_sts', {
  scope: 'domains:read',
  fetch: {
    path: '/domains/{domain_id}/mta-sts',
    parts: { policy: '/domains/{domain_id}/mta-sts' },
    notFound: 'absent',
  },
  schema: mtaStsSchema,
  plan: { role: 'core', tier: 'context', priority: 5, periodSeconds: 3 * 24 * 3600 },
  words: 'MTA-STS policy mode',
  value: (payload): MtaStsMode => payload.policy?.mode ?? null,
  shown: { label: 'MTA-STS policy', text: (mode) => mode ?? 'not set up' },
  rules: {
    /**
     * mta_sts_lowered: the domain's MTA-STS policy was in `enforce` at one read (every three days) and is not
     * at the next (testing, none, or no longer set up): senders may again deliver over unencrypted or
     * unverified connections. One episode per domain; it resolves when a read shows `enforce` again. The
     * first read is a baseline, and a policy that was never enforced says nothing here.
     */
    mtaStsLowered: domainCondition({
      alerts: {
        mta_sts_lowered: {
          label: 'MTA-STS mode lowered',
          description:
            'The MTA-STS policy mode went from enforce to testing or none (or was removed); ends when it is enforce again.',
          severity: 'warning',
          details: z.strictObject({
            modeBefore: z.literal('enforce'),
            /** null: no longer set up. */
            modeNow: z.string().nullable(),
            readAt: z.string(),
          }),
          words: 'MTA-STS no longer enforced',
        },
      },
      kind: 'mta_sts_lowered',
      readAt: (reading: MtaStsReading) => reading.fetchedAt,
      judge: (reading) => (reading.value === 'enforce' ? 'ok' : 'bad'),
      raise: (now, _before, domain) => {
        const mode = now.value ?? 'not set up';
        return {
          title: `MTA-STS of ${domain.fqdn} lowered from enforce to ${mode}`,
          body: `The MTA-STS policy of ${domain.fqdn} no longer enforces encrypted delivery (now: ${mode}): senders may deliver to it over connections that are not encrypted or not verified.`,
          details: { modeBefore: 'enforce' as const, modeNow: now.value, readAt: now.fetchedAt },
        };
      },
    }),
  },
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    mta_sts: typeof mtaSts;
  }
}

export default declareSignal('mta_sts', mtaSts);
