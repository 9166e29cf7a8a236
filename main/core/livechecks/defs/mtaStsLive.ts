/**
 * MTA-STS, live (RFC 8461): for each domain with an `_mta-sts` TXT record, the policy is fetched as a sending
 * MTA fetches it (./policyFetch.ts), its certificate kept and judged, the file parsed (shared/email-auth), and
 * its `mx:` patterns set against the domain's live MX records. Daily, and on the next tick after the DNS
 * watch sees the `_mta-sts` record change. Its rules: policy unreachable or invalid; certificate invalid or
 * expiring within 21/7 days; MX hosts the policy does not cover; the policy changed while the id did not.
 */
import { z } from 'zod';
import { conditionEvents, type Condition } from '../conditionAlert.ts';
import { liveCheck, type LiveReading } from '../definition.ts';
import { probeMtaSts, resultSchema, type MtaStsLive } from '../mtaStsProbe.ts';
import { expiryStage } from '../peerCertificate.ts';

type Reading = LiveReading<MtaStsLive> | null;

const STAGES = [21, 7] as const;
const enforced = (r: Reading, other: Reading) =>
  (r?.result.policy?.mode ?? other?.result.policy?.mode) === 'enforce';

const hostDetails = { host: z.string() };

export default liveCheck('mta_sts_live', {
  words: 'MTA-STS policy over HTTPS',
  per: 'domain',
  cadence: { periodSeconds: 24 * 3600, retrySeconds: 15 * 60, afterDnsChange: ['mta_sts'] },
  caps: { concurrency: 4, perTick: 4 },
  settingsKey: 'mtaSts',
  uses: ['dns', 'connections'],
  result: resultSchema,
  probe: probeMtaSts,
  shown: {
    label: 'MTA-STS policy (HTTPS)',
    text: (r) =>
      `${r.policy ? `mode ${r.policy.mode}, ${r.policy.mx.length} MX pattern(s)` : 'no policy'}${r.certificate ? `; certificate valid until ${r.certificate.notAfter.slice(0, 10)}` : ''}`,
    problems: (r) => [
      ...(r.error ? [`policy unreachable or invalid: ${r.error}`] : []),
      ...(r.certificate && !r.certificate.valid ? [r.certificate.problem ?? 'certificate not valid'] : []),
      ...(r.certificate?.valid && r.certificate.daysLeft <= 21
        ? [`certificate of ${r.host} expires in ${r.certificate.daysLeft} days`]
        : []),
      ...(r.uncoveredMx.length > 0 ? [`MX not covered by the policy: ${r.uncoveredMx.join(', ')}`] : []),
    ],
    expiries: (r) => (r.certificate ? [{ name: r.host, notAfter: r.certificate.notAfter }] : []),
    details: (r) => [
      {
        label: 'Policy host',
        text: `${r.host}${r.address ? ` (${r.address})` : ''}${r.status !== null ? `, HTTP ${r.status}` : ''}`,
      },
      { label: '_mta-sts id', text: r.txtId || '—' },
      ...(r.certificate
        ? [
            {
              label: 'Certificate chain',
              text: r.certificate.chain
                .map((c) => `${c.subject} ← ${c.issuer} (until ${c.notAfter.slice(0, 10)})`)
                .join('\n'),
            },
          ]
        : []),
      ...(r.policyText !== null ? [{ label: 'Policy file', text: r.policyText }] : []),
      ...(r.liveMx ? [{ label: 'Live MX', text: r.liveMx.join(', ') || 'none' }] : []),
    ],
  },
  rules: {
    mtaStsPolicyUnreachable: {
      alerts: {
        mta_sts_policy_unreachable: {
          label: 'MTA-STS policy unreachable',
          description:
            'The MTA-STS policy could not be fetched over HTTPS, or is not a valid policy; ends when it is read again.',
          severity: 'warning',
          details: z.strictObject({ ...hostDetails, error: z.string() }),
          words: 'MTA-STS policy unreachable',
        },
      },
      run: (_before: Reading, after: Reading, ctx) => {
        const d = ctx.domain;
        if (!d) return [];
        const error = after?.result.error ?? null;
        const found: Condition[] = error
          ? [
              {
                key: `${d.fqdn}:`,
                severity: 'warning',
                title: `MTA-STS policy of ${d.fqdn} unreachable`,
                body: `Senders cannot read the MTA-STS policy of ${d.fqdn}: ${error}. Senders that cached it keep it until max_age; new senders deliver without it.`,
                details: { host: after!.result.host, error },
              },
            ]
          : [];
        return conditionEvents('mta_sts_policy_unreachable', `${d.fqdn}:`, found, ctx);
      },
    },
    mtaStsCertificate: {
      alerts: {
        mta_sts_certificate_invalid: {
          label: 'MTA-STS certificate invalid',
          description:
            'The certificate of mta-sts.<domain> does not validate for that name (critical under enforce); ends when it does.',
          severity: 'critical',
          details: z.strictObject({ ...hostDetails, problem: z.string().nullable(), notAfter: z.string() }),
        },
        mta_sts_certificate_expiring: {
          label: 'MTA-STS certificate expiring',
          description:
            'The certificate of mta-sts.<domain> expires within 21 days (within 7: critical under enforce); ends when renewed.',
          severity: 'warning',
          details: z.strictObject({ ...hostDetails, notAfter: z.string(), daysLeft: z.number() }),
        },
      },
      run: (before: Reading, after: Reading, ctx) => {
        const d = ctx.domain;
        if (!d) return [];
        const cert = after?.result.certificate ?? null;
        const loud = enforced(after, before) ? 'critical' : 'warning';
        const invalid: Condition[] =
          cert && !cert.valid
            ? [
                {
                  key: `${d.fqdn}:`,
                  severity: loud,
                  title: `MTA-STS certificate of ${d.fqdn} not valid`,
                  body: `The certificate served at ${after!.result.host}: ${cert.problem}. Senders cannot fetch the policy.`,
                  details: { host: after!.result.host, problem: cert.problem, notAfter: cert.notAfter },
                },
              ]
            : [];
        const stage = cert?.valid ? expiryStage(cert.daysLeft, STAGES) : null;
        const expiring: Condition[] =
          cert && stage !== null
            ? [
                {
                  key: `${d.fqdn}:${stage}`,
                  severity: stage === 7 ? loud : 'warning',
                  title: `MTA-STS certificate of ${d.fqdn} expires in ${cert.daysLeft} days`,
                  body: `The certificate of ${after!.result.host} expires on ${cert.notAfter.slice(0, 10)}; renew it before senders can no longer fetch the policy.`,
                  details: { host: after!.result.host, notAfter: cert.notAfter, daysLeft: cert.daysLeft },
                },
              ]
            : [];
        return [
          ...conditionEvents('mta_sts_certificate_invalid', `${d.fqdn}:`, invalid, ctx),
          ...conditionEvents('mta_sts_certificate_expiring', `${d.fqdn}:`, expiring, ctx),
        ];
      },
    },
    mtaStsMxNotCovered: {
      alerts: {
        mta_sts_mx_not_covered: {
          label: 'MX not covered by MTA-STS',
          description:
            "An MX host of the domain matches none of the policy's mx patterns (critical under enforce: mail to it is refused); ends when covered.",
          severity: 'critical',
          details: z.strictObject({ uncovered: z.array(z.string()), patterns: z.array(z.string()) }),
        },
      },
      run: (before: Reading, after: Reading, ctx) => {
        const d = ctx.domain;
        if (!d) return [];
        const uncovered = after?.result.uncoveredMx ?? [];
        const found: Condition[] =
          uncovered.length > 0
            ? [
                {
                  key: `${d.fqdn}:`,
                  severity: enforced(after, before) ? 'critical' : 'warning',
                  title: `MTA-STS policy of ${d.fqdn} does not cover ${uncovered.join(', ')}`,
                  body: `The MTA-STS policy (mode ${after!.result.policy?.mode}) lists ${after!.result.policy?.mx.join(', ')}; the MX record${uncovered.length > 1 ? 's' : ''} ${uncovered.join(', ')} match none of them, so senders applying the policy refuse to deliver there.`,
                  details: { uncovered, patterns: after!.result.policy?.mx ?? [] },
                },
              ]
            : [];
        return conditionEvents('mta_sts_mx_not_covered', `${d.fqdn}:`, found, ctx);
      },
    },
    mtaStsIdUnchanged: {
      alerts: {
        mta_sts_changed_without_id: {
          label: 'MTA-STS policy changed, id did not',
          description:
            'The policy file changed while the _mta-sts record kept its id: senders keep the old policy until max_age. Ends when the id changes.',
          severity: 'warning',
          details: z.strictObject({ txtId: z.string(), modeBefore: z.string(), modeNow: z.string() }),
        },
      },
      run: (before: Reading, after: Reading, ctx) => {
        const d = ctx.domain;
        if (!d) return [];
        const key = `mta_sts_changed_without_id:${ctx.accountId}:${d.fqdn}:`;
        const open = ctx.openAlerts.get(key);
        if (open)
          return !after || after.result.txtId !== open.details.txtId
            ? [{ type: 'resolve', dedupeKey: key }]
            : [];
        const was = before?.result.policy;
        const now = after?.result.policy;
        if (
          !was ||
          !now ||
          before.result.txtId !== after.result.txtId ||
          before.result.policyText === after.result.policyText
        )
          return [];
        return [
          {
            type: 'raise',
            rule: 'mta_sts_changed_without_id',
            severity: 'warning',
            dedupeKey: key,
            domain: d,
            title: `MTA-STS policy of ${d.fqdn} changed but its id did not`,
            body: `The policy at ${after.result.host} changed (mode ${was.mode} → ${now.mode}; mx ${was.mx.join(', ')} → ${now.mx.join(', ')}) while _mta-sts.${d.fqdn} still says id=${after.result.txtId}: senders that cached the old policy keep it for up to ${was.maxAge} seconds. Publish a new id.`,
            details: { txtId: after.result.txtId, modeBefore: was.mode, modeNow: now.mode },
          },
        ];
      },
    },
  },
});
