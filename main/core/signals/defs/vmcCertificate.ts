import { z } from 'zod';
import type { AlertEvent, RuleContext } from '../../alerts/types.ts';
import { expiryStage, expiryWords, stageKey } from '../../livechecks/expiryStage.ts';
import type { ExtraReading } from '../definition.ts';
import { extraSignal } from '../extraSignal.ts';
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

/** RFC-free, but the issuers' reality: a VMC reissue takes weeks (trademark checks), so warn early. */
export const VMC_THRESHOLD_DAYS = [30, 14, 3] as const;

type Reading = ExtraReading<VmcFacts | null>;

/**
 * The episodes of the VMC's expiry: one per stage (30, 14, 3 days, expired), so each stage notifies once;
 * reaching the next stage ends the previous one, and a renewed certificate (a later valid_to beyond every
 * threshold) ends them all. Judged at the write's time, from the stored date.
 */
export function vmcExpiryEvents(next: Reading, ctx: RuleContext): AlertEvent[] {
  const domain = ctx.domain;
  if (!domain || !next) return [];
  const prefix = `vmc_expiry:${ctx.accountId}:${domain.fqdn}:`;
  const facts = next.value;
  const stage = facts ? expiryStage(facts.validTo, Date.parse(ctx.at), VMC_THRESHOLD_DAYS) : null;
  const key = stage ? prefix + stageKey(stage) : null;
  const events: AlertEvent[] = [...ctx.openAlerts.keys()]
    .filter((k) => k.startsWith(prefix) && k !== key)
    .map((dedupeKey) => ({ type: 'resolve', dedupeKey }));
  if (!stage || !facts || !key || ctx.openAlerts.has(key)) return events;
  const when = expiryWords(facts.validTo, Date.parse(ctx.at));
  const expired = stage.stage === 'expired';
  events.push({
    type: 'raise',
    rule: expired ? 'vmc_expired' : 'vmc_expiring',
    // 30 days ahead is news (info); 14 and 3 days is a warning; expired, the logo is gone (critical).
    severity: expired ? 'critical' : stage.thresholdDays <= 14 ? 'warning' : 'info',
    dedupeKey: key,
    domain,
    title: `VMC of ${domain.fqdn} ${when}`,
    body: expired
      ? `The Verified Mark Certificate of ${domain.fqdn} (${facts.subject}) expired on ${facts.validTo.slice(0, 10)}: mailbox providers no longer show the brand logo. Upload the renewed certificate.`
      : `The Verified Mark Certificate of ${domain.fqdn} (${facts.subject}) ${when} (${facts.validTo.slice(0, 10)}). A reissue takes weeks: start the renewal with the issuer now, or the logo disappears.`,
    details: { validTo: facts.validTo, stage: stageKey(stage), subject: facts.subject },
  });
  return events;
}

const expiryDetails = z.strictObject({ validTo: z.string(), stage: z.string(), subject: z.string() });

/**
 * The VMC of each domain with BIMI, read weekly in the context tier (a certificate changes at renewal, once a
 * year): 0.1 reads a minute at 1,000 domains. Its rules judge the stored valid_to against the write's time.
 */
const vmcCertificate = extraSignal('vmc_certificate', {
  scope: 'domains:read',
  fetch: { path: PATH, parts: { vmc: PATH } },
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
    /** vmc_expiring / vmc_expired: 30, 14 and 3 days before valid_to, and once it has passed. */
    vmcExpiry: {
      alerts: {
        vmc_expiring: {
          label: 'VMC expiring',
          description:
            'The Verified Mark Certificate expires within 30, 14 or 3 days; ends when a renewed certificate is read.',
          severity: 'warning',
          details: expiryDetails,
          words: 'Brand logo certificate (VMC) expiring',
        },
        vmc_expired: {
          label: 'VMC expired',
          description: 'The Verified Mark Certificate has expired; ends when a renewed certificate is read.',
          severity: 'critical',
          details: expiryDetails,
          words: 'Brand logo certificate (VMC) expired',
        },
      },
      run: (_previous, next, ctx) => vmcExpiryEvents(next, ctx),
    },
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
