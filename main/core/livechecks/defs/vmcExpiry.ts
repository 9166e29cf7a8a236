import { z } from 'zod';
import type { AlertDomain, AlertEvent, RaiseEvent, RuleContext } from '../../alerts/types.ts';
import type { VmcFacts } from '../../signals/defs/vmcCertificate.ts';
import { expiryStage, expiryWords, stageEpisodeEvents, stageKey } from '../expiryStage.ts';
import { liveCheck, type LiveReading } from '../definition.ts';

/** A VMC reissue takes weeks (the issuer re-verifies the trademark): warn a month ahead. */
const THRESHOLD_DAYS = [30, 14, 3] as const;

const resultSchema = z.object({
  subject: z.string(),
  validTo: z.string(),
  /** '30d', '14d', '3d', 'expired', or null while none is reached. */
  stage: z.string().nullable(),
  when: z.string(),
});
type VmcExpiry = z.infer<typeof resultSchema>;
type Reading = LiveReading<VmcExpiry> | null;

/**
 * One episode per stage (30, 14, 3 days, expired), so each stage notifies once; the next stage ends the one
 * before, and a renewed certificate (or none any more) ends them all.
 */
function expiryEvents(_before: Reading, after: Reading, ctx: RuleContext): AlertEvent[] {
  const domain = ctx.domain;
  const r = after?.result ?? null;
  if (!domain) return [];
  const prefix = `vmc_expiry:${ctx.accountId}:${domain.fqdn}:`;
  return stageEpisodeEvents(ctx.openAlerts, prefix, r?.stage ?? null, (key) => raise(r!, key, domain));
}

function raise(r: VmcExpiry, key: string, domain: AlertDomain): RaiseEvent {
  const expired = r.stage === 'expired';
  return {
    type: 'raise',
    rule: expired ? 'vmc_expired' : 'vmc_expiring',
    // 30 days ahead is news (info); 14 and 3 days a warning; expired, the logo is gone (critical).
    severity: expired ? 'critical' : r.stage === '30d' ? 'info' : 'warning',
    dedupeKey: key,
    domain,
    title: `VMC of ${domain.fqdn} ${r.when}`,
    body: expired
      ? `The Verified Mark Certificate of ${domain.fqdn} (${r.subject}) expired on ${r.validTo.slice(0, 10)}: mailbox providers no longer show the brand logo. Upload the renewed certificate.`
      : `The Verified Mark Certificate of ${domain.fqdn} (${r.subject}) ${r.when} (${r.validTo.slice(0, 10)}). A reissue takes weeks: start the renewal with the issuer now, or the logo disappears.`,
    details: { validTo: r.validTo, stage: r.stage ?? '', subject: r.subject },
  };
}

const details = z.strictObject({ validTo: z.string(), stage: z.string(), subject: z.string() });

/**
 * The VMC's expiry, judged daily against the clock from the certificate the weekly VMC read stored
 * (signals/defs/vmcCertificate.ts): no request, no network.
 */
export default liveCheck('vmc_expiry', {
  words: 'When the brand logo’s certificate (VMC) expires',
  per: 'domain',
  cadence: { periodSeconds: 86_400, retrySeconds: 3600 },
  caps: { concurrency: 16, perTick: 500 },
  settingsKey: 'vmcExpiry',
  uses: [],
  result: resultSchema,
  async probe(ctx) {
    const { accountId, domainId } = ctx.target;
    const stored =
      domainId === null ? null : ctx.mirror.extraSignalValue(accountId, domainId, 'vmc_certificate');
    const facts = stored?.value as VmcFacts | null | undefined;
    if (!facts) return { status: 'not_applicable', words: 'no VMC read for this domain' };
    const stage = expiryStage(facts.validTo, ctx.now(), THRESHOLD_DAYS);
    return {
      status: 'checked',
      result: {
        subject: facts.subject,
        validTo: facts.validTo,
        stage: stage ? stageKey(stage) : null,
        when: expiryWords(facts.validTo, ctx.now()),
      },
    };
  },
  rules: {
    vmcExpiry: {
      alerts: {
        vmc_expiring: {
          label: 'VMC expiring',
          description:
            'The Verified Mark Certificate expires within 30, 14 or 3 days; ends when a renewed certificate is read.',
          severity: 'warning',
          details,
          words: 'Brand logo certificate (VMC) expiring',
        },
        vmc_expired: {
          label: 'VMC expired',
          description: 'The Verified Mark Certificate has expired; ends when a renewed certificate is read.',
          severity: 'critical',
          details,
          words: 'Brand logo certificate (VMC) expired',
        },
      },
      run: expiryEvents,
    },
  },
  shown: {
    label: 'VMC expiry',
    text: (r) => `${r.when} (${r.validTo.slice(0, 10)})`,
    problems: (r) => (r.stage ? [`the VMC ${r.when}`] : []),
    // /metrics: days to the VMC's expiry beside the TLS certificates'.
    expiries: (r) => [{ name: `VMC ${r.subject}`, notAfter: r.validTo }],
  },
});
