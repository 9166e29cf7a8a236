import { z } from 'zod';
import { extraSignal } from '../../mirror/extraSignal.ts';
import { declareSignal } from '../signalDeclaration.ts';

const PATH = '/domains/{domain_id}/bimi/vmc';

/** GET /domains/{id}/bimi/vmc (x-inferred): the certificate part the expiry and chain rules read. */
const analysis = z
  .object({
    valid: z.boolean(),
    problems: z.array(z.string()),
    certificate: z
      .object({
        subject: z.string(),
        valid_to: z.string().refine((v) => Number.isFinite(Date.parse(v)), 'not a date-time'),
        chain_ok: z.boolean(),
        problems: z.array(z.string()),
      })
      .loose()
      .nullish(),
  })
  .loose();

/** As a part, so a 404 (no BIMI set up) is null rather than a failed read. */
const vmcSchema = z.object({ vmc: analysis.nullable() }).loose();

/** What is kept: the VMC's subject, when it ends and whether its chain is trusted; null without a VMC. */
export interface VmcFacts {
  subject: string;
  validTo: string;
  chainOk: boolean;
  /** The chain's problems, in the service's words. */
  problems: string[];
}

/**
 * The VMC of each domain with BIMI, read weekly in the context tier (a certificate changes at renewal, once a
 * year): 0.1 reads a minute at 1,000 domains. Its rule: the chain no longer trusted. Expiry is judged daily
 * against the clock from the stored valid_to by the live check vmc_expiry (livechecks/defs/vmcExpiry.ts), so
 * the 3-day warning cannot fall between two weekly reads.
 */
const vmcCertificate = extraSignal('vmc_certificate', {
  scope: 'domains:read',
  fetch: { path: PATH, parts: { vmc: PATH }, notFound: 'absent' },
  schema: vmcSchema,
  plan: { role: 'core', tier: 'context', priority: 5, periodSeconds: 7 * 24 * 3600 },
  words:
    'The Verified Mark Certificate (VMC) of the brand logo: when it expires and whether its chain is trusted',
  value: ({ vmc }): VmcFacts | null => {
    const cert = vmc?.certificate;
    if (!cert) return null;
    return { subject: cert.subject, validTo: cert.valid_to, chainOk: cert.chain_ok, problems: cert.problems };
  },
  shown: {
    label: 'VMC',
    text: (v) =>
      !v ? 'none' : `${v.chainOk ? 'trusted' : 'chain invalid'}, valid until ${v.validTo.slice(0, 10)}`,
  },
  rules: {
    /** vmc_chain_invalid: the VMC's chain is not trusted (or broken); ends when a read shows it trusted. */
    vmcChainInvalid: {
      alerts: {
        vmc_chain_invalid: {
          label: 'VMC chain invalid',
          description:
            'The Verified Mark Certificate does not chain to a trusted BIMI root; ends when it does.',
          severity: 'warning',
          details: z.strictObject({ problems: z.array(z.string()), subject: z.string() }),
          words: 'Brand logo certificate (VMC) not trusted',
        },
      },
      run: (_previous, next, ctx) => {
        const domain = ctx.domain;
        if (!domain || !next) return [];
        const key = `vmc_chain_invalid:${ctx.accountId}:${domain.fqdn}`;
        const facts = next.value;
        if (!facts || facts.chainOk)
          return ctx.openAlerts.has(key) ? [{ type: 'resolve', dedupeKey: key }] : [];
        if (ctx.openAlerts.has(key)) return [];
        return [
          {
            type: 'raise',
            rule: 'vmc_chain_invalid',
            severity: 'warning',
            dedupeKey: key,
            domain,
            title: `VMC of ${domain.fqdn} is not trusted`,
            body: `The Verified Mark Certificate of ${domain.fqdn} (${facts.subject}) does not chain to a trusted BIMI root: ${facts.problems.join('; ') || 'the chain is invalid'}. Mailbox providers do not show the logo.`,
            details: { problems: facts.problems, subject: facts.subject },
          },
        ];
      },
    },
  },
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    vmc_certificate: typeof vmcCertificate;
  }
}

export default declareSignal('vmc_certificate', vmcCertificate);
