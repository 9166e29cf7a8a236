import { z } from 'zod';
import { domainCondition } from '../../alerts/transition.ts';
import type { ExtraReading } from '../definition.ts';
import { extraSignal } from '../../mirror/extraSignal.ts';
import { declareSignal } from '../signalDeclaration.ts';

const PATH = '/domains/{domain_id}/bimi/readiness';

/** GET /domains/{id}/bimi/readiness: what mailbox providers require before they show the brand's logo. */
const readinessAnswer = z
  .object({
    score: z.number().int().min(0).max(100),
    ready: z.boolean().optional(),
    checks: z.array(z.object({ id: z.string(), label: z.string().optional(), passed: z.boolean() }).loose()),
  })
  .loose();

/** The answer, or null when the call answers 404 (`notFound: 'absent'`: the service has nothing for it). */
const readinessSchema = readinessAnswer.nullable();

/** What is kept of an answer: whether the logo can be shown, and the checks that keep it from showing. */
export interface BimiReadiness {
  ready: boolean;
  score: number;
  /** The failing checks, in words (the service's labels). */
  failing: string[];
}

/**
 * BIMI readiness, polled weekly (DMARC enforcement, SPF, the BIMI record, the logo and the VMC are set up by
 * people and change rarely; DMARC weakened has its own rule on the polls that see it first): in the context
 * tier, so it never takes budget from the alert-bearing reads. Its rule: a domain that was ready is no longer.
 */
const bimiReadiness = extraSignal('bimi_readiness', {
  scope: 'domains:read',
  fetch: { path: PATH, notFound: 'absent' },
  schema: readinessSchema,
  plan: { role: 'core', tier: 'context', priority: 5, periodSeconds: 7 * 24 * 3600 },
  words: 'Whether mailbox providers can show the brand logo (BIMI readiness)',
  value: (readiness): BimiReadiness | null => {
    if (!readiness) return null;
    const failing = readiness.checks.filter((c) => !c.passed);
    return {
      // An answer without `ready` (the interface leaves it open) is ready when every check passes.
      ready: readiness.ready ?? failing.length === 0,
      score: readiness.score,
      failing: failing.map((c) => c.label ?? c.id),
    };
  },
  shown: {
    label: 'BIMI readiness',
    text: (r) =>
      !r
        ? 'no answer'
        : r.ready
          ? 'ready: the logo can be shown'
          : `not ready (${r.score}/100): ${r.failing.join('; ') || 'failing'}`,
  },
  rules: {
    /**
     * bimi_readiness_lost: the domain was BIMI-ready at one weekly read and is not at the next, so mailbox
     * providers stop showing its logo. One episode per domain, resolved when a read shows it ready again; the
     * first read is a baseline, and a domain that was never ready says nothing here.
     */
    bimiReadinessLost: domainCondition({
      alerts: {
        bimi_readiness_lost: {
          label: 'BIMI readiness lost',
          description:
            'A domain whose BIMI checks all passed now fails one, so its logo is no longer shown; ends when every check passes again.',
          severity: 'info',
          details: z.strictObject({ failing: z.array(z.string()), score: z.number(), readAt: z.string() }),
          words: 'Brand logo (BIMI) no longer shown',
        },
      },
      kind: 'bimi_readiness_lost',
      readAt: (reading: NonNullable<ExtraReading<BimiReadiness | null>>) => reading.fetchedAt,
      // No answer says nothing either way (the alert stays as it is).
      judge: ({ value }) => (!value ? null : value.ready ? 'ok' : 'bad'),
      raise: ({ value, fetchedAt }, _before, domain) => {
        const { failing, score } = value!;
        return {
          title: `BIMI of ${domain.fqdn} no longer ready: ${failing.join('; ')}`,
          body: `Mailbox providers stop showing the logo of ${domain.fqdn}: ${failing.join('; ')} (readiness ${score}/100).`,
          details: { failing, score, readAt: fetchedAt },
        };
      },
    }),
  },
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    bimi_readiness: typeof bimiReadiness;
  }
}

export default declareSignal('bimi_readiness', bimiReadiness);
