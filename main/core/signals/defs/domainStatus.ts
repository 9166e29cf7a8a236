import { z } from 'zod';
import { PROTOCOL_LABELS, PROTOCOLS } from '../../../../shared/email-auth/protocols.ts';
import { domainCondition } from '../../alerts/transition.ts';
import type { ExtraReading } from '../definition.ts';
import { extraSignal } from '../../mirror/extraSignal.ts';
import { declareSignal } from '../signalDeclaration.ts';

/** One protocol's verification (interface: ProtocolVerification). */
const protocolVerification = z.object({ verified: z.boolean(), status: z.string() }).loose();

/** GET /domains/{id}/status: whether the service has verified the domain's records, per protocol. */
const domainStatusSchema = z
  .object({
    domain_id: z.number().int(),
    verified: z.boolean().optional(),
    protocols: z.object(Object.fromEntries(PROTOCOLS.map((p) => [p, protocolVerification.optional()]))),
  })
  .loose();

/** What is kept: whether the domain is verified, and the protocols that are not (in words: "MTA-STS"). */
export interface DomainVerification {
  verified: boolean;
  unverified: string[];
}

/**
 * Domain verification, polled every 14 days (people verify a domain once; it is lost when a record it rests on
 * is removed): in the context tier, whose cost test/unit/core/signals/contextBudget.test.ts holds under 1 % of
 * the budget. A 404 is the service no longer knowing the domain. Its rule: a verified domain is no longer.
 */
const domainStatus = extraSignal('domain_status', {
  scope: 'domains:read',
  fetch: { path: '/domains/{domain_id}/status', notFound: 'domain_gone' },
  schema: domainStatusSchema,
  plan: { role: 'core', tier: 'context', priority: 5, periodSeconds: 14 * 24 * 3600 },
  words: 'Whether the service has verified each domain',
  value: ({ verified, protocols }): DomainVerification => {
    const unverified = PROTOCOLS.filter((p) => protocols[p] && !protocols[p].verified).map(
      (p) => PROTOCOL_LABELS[p],
    );
    // An answer without `verified` (the interface leaves it open) is verified when every protocol is.
    return { verified: verified ?? unverified.length === 0, unverified };
  },
  shown: {
    label: 'Domain verification',
    text: (v) => (v.verified ? 'verified' : `not verified (${v.unverified.join(', ') || 'pending'})`),
  },
  rules: {
    /**
     * domain_verification_lost: the domain was verified at one read and is not at the next (a record it rests
     * on was removed or changed). One episode per domain, resolved when a read shows it verified again; the
     * first read is a baseline, and a domain never verified says nothing here.
     */
    domainVerificationLost: domainCondition({
      alerts: {
        domain_verification_lost: {
          label: 'Domain verification lost',
          description:
            'A domain the service had verified is no longer verified; ends when it is verified again.',
          severity: 'warning',
          details: z.strictObject({ unverified: z.array(z.string()), readAt: z.string() }),
          words: 'Domain no longer verified',
        },
      },
      kind: 'domain_verification_lost',
      readAt: (reading: NonNullable<ExtraReading<DomainVerification>>) => reading.fetchedAt,
      judge: ({ value }) => (value.verified ? 'ok' : 'bad'),
      raise: ({ value, fetchedAt }, _before, domain) => ({
        title: `${domain.fqdn} is no longer verified${value.unverified.length ? `: ${value.unverified.join(', ')}` : ''}`,
        body: `The service no longer counts ${domain.fqdn} as verified (not verified: ${value.unverified.join(', ') || 'none named'}); check the records it was verified by.`,
        details: { unverified: value.unverified, readAt: fetchedAt },
      }),
    }),
  },
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    domain_status: typeof domainStatus;
  }
}

export default declareSignal('domain_status', domainStatus);
