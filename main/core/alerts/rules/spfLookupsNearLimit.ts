import { z } from 'zod';
import { alertRule, type RuleStateOf } from '../ruleDefinition.ts';
import { domainCondition } from '../transition.ts';

/** Receivers stop evaluating SPF after 10 DNS lookups (RFC 7208 §4.6.4): the record then fails (permerror). */
const LIMIT = 10;
/** One include away from the limit: the warning comes before the record breaks. */
const NEAR = 9;

/** SPF's lookup count as the service last read the domain's records, and when. */
interface SpfLookups {
  count: number | null;
  at: string;
}

/** The SPF lookups of a dns_current reading (null before its first read). */
function spfLookups(records: RuleStateOf<'dns_current'>): SpfLookups | null {
  return records && { count: records.protocols.spf?.lookupCount ?? null, at: records.fetchedAt };
}

const rule = domainCondition({
  alerts: {
    spf_service_lookups_near_limit: {
      label: 'SPF lookups near the limit (service count)',
      description: `The SPF record takes ${NEAR} or more of the ${LIMIT} DNS lookups receivers allow; ends when it takes fewer.`,
      severity: 'warning',
      details: z.strictObject({ lookups: z.number(), limit: z.number(), readAt: z.string() }),
      words: 'SPF near its lookup limit (service count)',
    },
  },
  kind: 'spf_service_lookups_near_limit',
  readAt: (reading: SpfLookups) => reading.at,
  // No SPF record (or no count) says nothing: the protocol's own alerts tell a missing record.
  judge: ({ count }) => (count === null ? null : count >= NEAR ? 'bad' : 'ok'),
  // A limit, not a change: a domain already near it on its first read is told too.
  opensOn: 'bad',
  raise: ({ count, at }, _before, domain) => ({
    title: `SPF of ${domain.fqdn} takes ${count} of ${LIMIT} DNS lookups`,
    body: `The SPF record of ${domain.fqdn} needs ${count} DNS lookups; receivers give up after ${LIMIT} and then fail SPF for all its mail. One more include breaks it: flatten or remove an include.`,
    details: { lookups: count!, limit: LIMIT, readAt: at },
  }),
});

/**
 * spf_service_lookups_near_limit: the service's reading of the domain's current records (dns_current, read for every
 * domain weekly and when opened) counts 9 or 10 SPF lookups of the 10 receivers allow. One episode per domain;
 * it ends when a read counts fewer.
 */
export const spfLookupsNearLimit = rule.run;

export default alertRule({
  ...rule,
  on: {
    dns_current: ({ before, after }, ctx, run) => run(spfLookups(before), spfLookups(after), ctx),
  },
});
