import { z } from 'zod';
import { stoppedResolvingKey } from '../keys.ts';
import type { AlertEvent, AlertRuleFn } from '../types.ts';
import { alertRule } from '../ruleDefinition.ts';

/**
 * What the DNS watch confirmed of a domain's own name: it resolves, or its resolver answers that it does not
 * exist (NXDOMAIN) while other watched domains resolve — so the resolver is trusted and the domain is the
 * news (main/core/dnswatch/resolverTrust.ts).
 */
export interface ApexReading {
  resolves: boolean;
  /** The resolver that answered (host:port). */
  resolver: string;
  /** When the confirmed state's run of answers began (ISO). */
  since: string;
}

/**
 * domain_stopped_resolving: a domain that resolved stops existing in DNS — its registration expired, or its
 * delegation was removed. Mail from it fails every check at once, and someone else may register the name.
 * Raised only on a change confirmed by the watch (a domain that never resolved is a baseline, not news); a
 * repeat while it is open refreshes the episode; ends when the domain resolves again.
 */
export const domainStoppedResolving: AlertRuleFn<ApexReading | null, ApexReading> = (previous, next, ctx) => {
  const domain = ctx.domain;
  if (!domain) return [];
  const key = stoppedResolvingKey(ctx.accountId, domain.fqdn);
  const open = ctx.openAlerts.get(key);
  if (next.resolves) return open ? [{ type: 'resolve', dedupeKey: key }] : [];
  if (!open && previous?.resolves !== true) return [];
  const events: AlertEvent[] = [
    {
      type: 'raise',
      rule: 'domain_stopped_resolving',
      severity: 'critical',
      dedupeKey: key,
      domain,
      title: `${domain.fqdn} no longer resolves`,
      body:
        `DNS answers that ${domain.fqdn} does not exist (NXDOMAIN from ${next.resolver}) while the other ` +
        `watched domains resolve (reported by Authwatch's own DNS watch). Its registration may have expired ` +
        `or its name servers been removed: mail from it fails every check, and the name may be registered ` +
        `by someone else. Check the registration with the registrar.`,
      details: {
        resolver: next.resolver,
        since: typeof open?.details.since === 'string' ? open.details.since : next.since,
      },
    },
  ];
  return events;
};

export default alertRule({
  alerts: {
    domain_stopped_resolving: {
      label: 'Domain stopped resolving',
      description:
        'The DNS watch confirmed that a domain which resolved no longer exists in DNS (NXDOMAIN) while the others resolve — an expired registration or a removed delegation; ends when it resolves again.',
      severity: 'critical',
      details: z.strictObject({
        /** The resolver that answered NXDOMAIN. */
        resolver: z.string(),
        /** When the confirmed run of NXDOMAIN answers began. */
        since: z.string(),
      }),
      words: 'Domain no longer resolves',
    },
  },
  run: domainStoppedResolving,
  dnsWatch: true,
});
