import { z } from 'zod';
import {
  DMARC_POLICIES,
  policyStrength,
  type DmarcPolicy,
} from '../../../../shared/email-auth/dmarcRecord.ts';
import { dmarcPolicyOf, type DmarcPolicyView } from '../../../../shared/email-auth/dmarcPolicy.ts';
import type { AlertEvent, AlertRuleFn } from '../types.ts';
import { alertRule } from '../ruleDefinition.ts';
import { onLiveDmarcRecord, recordShowsEdit, type AppEdit } from '../ruleWrites.ts';

/** The DMARC policy a health scan saw (from its live DMARC record), and when. */
export interface DmarcPolicyReading extends DmarcPolicyView {
  /** scanned_at. */
  at: string;
  /** The user's latest DMARC edit in this app, when one is kept (read only when the record changed). */
  edit?: AppEdit;
}

/** The reading of a scan's DMARC record; null when the scan has no record or it does not parse. */
export function dmarcPolicyReading(
  record: string | null,
  at: string,
  edit: AppEdit = null,
): DmarcPolicyReading | null {
  const view = dmarcPolicyOf(record);
  return view ? { ...view, at, edit } : null;
}

/**
 * True when the scan shows the policy the user set in this app before it (p, sp and pct as the edit wrote
 * them): they lowered it themselves, knowing, and the status already tells the pending edit confirmed.
 */
function userSetIt(now: DmarcPolicyReading): boolean {
  const shown = new Map([
    ['p', now.policy],
    ['sp', now.subdomainPolicy],
    ['pct', String(now.pct)],
  ]);
  return recordShowsEdit(now.edit, now.at, shown, [...shown.keys()]);
}

type Policy = Pick<DmarcPolicyView, 'policy' | 'subdomainPolicy' | 'pct'>;

const weaker = (a: DmarcPolicy, b: DmarcPolicy): boolean => policyStrength(a) < policyStrength(b);

/** What got weaker from `before` to `now`, in words (empty: nothing did). */
function weakenings(before: Policy, now: Policy): string[] {
  const parts: string[] = [];
  if (weaker(now.policy, before.policy)) {
    parts.push(`the policy went from ${before.policy} to ${now.policy}`);
  }
  if (weaker(now.subdomainPolicy, before.subdomainPolicy)) {
    parts.push(`the subdomain policy went from ${before.subdomainPolicy} to ${now.subdomainPolicy}`);
  }
  // pct is the share the policy applies to (the rest gets the next lower one): fewer under the same policy.
  if (now.pct < before.pct && now.policy === before.policy && now.policy !== 'none') {
    parts.push(`the share of failing mail it applies to went from ${before.pct} % to ${now.pct} %`);
  }
  return parts;
}

function policyOf(details: Record<string, unknown>): Policy | null {
  const { policyBefore, subdomainPolicyBefore, pctBefore } = details;
  const policies = ['none', 'quarantine', 'reject'];
  if (!policies.includes(String(policyBefore)) || !policies.includes(String(subdomainPolicyBefore)))
    return null;
  if (typeof pctBefore !== 'number') return null;
  return {
    policy: policyBefore as DmarcPolicy,
    subdomainPolicy: subdomainPolicyBefore as DmarcPolicy,
    pct: pctBefore,
  };
}

/**
 * dmarc_policy_weakened: between two health scans the domain's live DMARC record asks receivers for less —
 * p or sp lowered (reject > quarantine > none), or pct reduced under the same policy (not none). One episode per
 * domain; a further weakening while open refreshes it; it resolves when a scan shows the record back to at
 * least what it asked before the weakening. The first scan is a baseline; a record that is gone or does not
 * parse says nothing here (the protocol's own alerts tell that), and neither does a policy the user set
 * themselves through this app's edit forms.
 */
export const dmarcPolicyWeakened: AlertRuleFn<DmarcPolicyReading | null, DmarcPolicyReading | null> = (
  previous,
  next,
  ctx,
) => {
  const domain = ctx.domain;
  if (!domain || !next || (previous && previous.at === next.at) || userSetIt(next)) return [];
  const key = `dmarc_policy_weakened:${ctx.accountId}:${domain.fqdn}`;
  const open = ctx.openAlerts.get(key);
  const base = open ? policyOf(open.details) : null;
  if (open && base) {
    if (weakenings(base, next).length === 0) return [{ type: 'resolve', dedupeKey: key }];
    return previous && weakenings(previous, next).length > 0 ? [raise(base)] : [];
  }
  return previous && weakenings(previous, next).length > 0 ? [raise(previous)] : [];

  function raise(before: Policy): AlertEvent {
    const now = next!;
    const headline = weaker(now.policy, before.policy)
      ? `lowered from ${before.policy} to ${now.policy}`
      : weaker(now.subdomainPolicy, before.subdomainPolicy)
        ? `for subdomains lowered from ${before.subdomainPolicy} to ${now.subdomainPolicy}`
        : `applied to ${now.pct} % of failing mail, down from ${before.pct} %`;
    return {
      type: 'raise',
      rule: 'dmarc_policy_weakened',
      severity: 'warning',
      dedupeKey: key,
      domain: domain!,
      title: `DMARC policy of ${domain!.fqdn} ${headline}`,
      body: `In the latest scan of ${domain!.fqdn}, ${weakenings(before, now).join(' and ')}: receivers now let more mail that fails DMARC through.`,
      details: {
        policyBefore: before.policy,
        subdomainPolicyBefore: before.subdomainPolicy,
        pctBefore: before.pct,
        policyNow: now.policy,
        subdomainPolicyNow: now.subdomainPolicy,
        pctNow: now.pct,
        scannedAt: now.at,
      },
    };
  }
};

const policy = z.enum(DMARC_POLICIES);

export default alertRule({
  alerts: {
    dmarc_policy_weakened: {
      label: 'DMARC policy weakened',
      description:
        'The live DMARC record asks for less (p or sp lowered, or pct reduced) than at the scan before; ends when it asks for as much again.',
      severity: 'warning',
      details: z.strictObject({
        policyBefore: policy,
        subdomainPolicyBefore: policy,
        pctBefore: z.number(),
        policyNow: policy,
        subdomainPolicyNow: policy,
        pctNow: z.number(),
        scannedAt: z.string(),
      }),
      words: 'DMARC policy weakened',
    },
  },
  run: dmarcPolicyWeakened,
  on: {
    health: onLiveDmarcRecord(dmarcPolicyReading),
  },
});
