import { z } from 'zod';
import type { AlertEvent, RuleContext } from '../../alerts/types.ts';
import { dnsResolveOver } from '../../dnswatch/watchResolver.ts';
import {
  SPF_LOOKUP_LIMIT,
  SPF_VOID_LIMIT,
  spfCostChanges,
  spfCostChangeWords,
  spfLookupTree,
  type SpfLookupNode,
  type SpfLookupTree,
} from '../../../../shared/email-auth/spfLookupTree.ts';
import { liveCheck, type LiveReading } from '../definition.ts';

/** Lookups at which the budget is nearly spent: one more include and receivers fail SPF. */
const NEAR_LIMIT = 9;

const node: z.ZodType<SpfLookupNode> = z.lazy(() =>
  z.object({
    term: z.string(),
    in: z.string(),
    lookups: z.number().int().min(0),
    voids: z.number().int().min(0),
    record: z.string().nullable().optional(),
    problem: z.string().optional(),
    children: z.array(node),
  }),
);

const resultSchema = z.object({
  domain: z.string(),
  record: z.string().nullable(),
  lookups: z.number().int().min(0),
  voids: z.number().int().min(0),
  status: z.enum(['ok', 'none', 'permerror', 'temperror']),
  problems: z.array(z.string()),
  terms: z.array(node),
  /** The service's own count of the record's lookups, when the mirror holds one. */
  service: z.object({ count: z.number().int(), at: z.string() }).nullable(),
});

type SpfLookups = z.infer<typeof resultSchema>;
type Reading = LiveReading<SpfLookups> | null;

/** "include:_spf.vendor.example (6), mx (1)": what each term of the published record costs. */
function costs(result: SpfLookups): string {
  return result.terms.map((t) => `${t.term} (${t.lookups})`).join(', ');
}

/** Where the service's count and ours differ, in words (null when they agree or the service has none). */
export function disagreement(result: SpfLookups): string | null {
  const service = result.service;
  if (!service || service.count === result.lookups) return null;
  const more = result.lookups > service.count;
  return `The service counted ${service.count} lookups (read ${service.at.slice(0, 16).replace('T', ' ')} UTC); the live count is ${result.lookups}, ${Math.abs(result.lookups - service.count)} ${more ? 'more' : 'fewer'} — ${more ? 'an include grew since the service read it, or the service counts differently' : 'an include shrank since the service read it'}.`;
}

/** The tree as indented lines with each term's cost, for the Checks tab. */
function treeLines(nodes: readonly SpfLookupNode[], depth = 0): string[] {
  return nodes.flatMap((n) => [
    `${'  '.repeat(depth)}${n.term} — ${n.lookups} lookup${n.lookups === 1 ? '' : 's'}${n.voids ? `, ${n.voids} void` : ''}${n.problem ? ` (${n.problem})` : ''}`,
    ...treeLines(n.children, depth + 1),
  ]);
}

type Level = 'over' | 'void' | 'near' | null;

function level(result: SpfLookups): Level {
  if (result.voids > SPF_VOID_LIMIT) return 'void';
  if (result.lookups > SPF_LOOKUP_LIMIT) return 'over';
  if (result.lookups >= NEAR_LIMIT) return 'near';
  return null;
}

const RULE_OF: Record<
  Exclude<Level, null>,
  'spf_lookups_over_limit' | 'spf_void_lookups' | 'spf_lookups_near_limit'
> = {
  over: 'spf_lookups_over_limit',
  void: 'spf_void_lookups',
  near: 'spf_lookups_near_limit',
};

const details = z.strictObject({ lookups: z.number(), voids: z.number(), changes: z.array(z.string()) });

/**
 * The SPF budget's episodes, one open at a time per domain: near the limit (9 or 10 lookups, warning), over
 * it (11+, critical: every receiver fails SPF), or too many void lookups (3+, critical). Moving between them
 * ends the one before; a record back under 9 (or removed) ends it. The alert names what changed since the
 * previous check ("include:_spf.vendor.example now costs 6 lookups, was 3").
 */
function budgetEvents(before: Reading, after: Reading, ctx: RuleContext): AlertEvent[] {
  const domain = ctx.domain;
  if (!domain) return [];
  const keyOf = (l: Exclude<Level, null>) => `${RULE_OF[l]}:${ctx.accountId}:${domain.fqdn}`;
  const now = after ? level(after.result) : null;
  const events: AlertEvent[] = (['over', 'void', 'near'] as const)
    .filter((l) => l !== now && ctx.openAlerts.has(keyOf(l)))
    .map((l) => ({ type: 'resolve', dedupeKey: keyOf(l) }));
  if (!after || !now || ctx.openAlerts.has(keyOf(now))) return events;
  const r = after.result;
  const changes = before
    ? spfCostChanges(before.result as SpfLookupTree, r as SpfLookupTree).map(spfCostChangeWords)
    : [];
  const lead = changes.length > 0 ? `${changes.join('; ')}. ` : '';
  const title =
    now === 'void'
      ? `SPF of ${domain.fqdn} has ${r.voids} void lookups (over ${SPF_VOID_LIMIT})`
      : now === 'over'
        ? `SPF of ${domain.fqdn} needs ${r.lookups} DNS lookups: receivers fail it (permerror)`
        : `SPF of ${domain.fqdn} uses ${r.lookups} of its ${SPF_LOOKUP_LIMIT} DNS lookups`;
  const consequence =
    now === 'near'
      ? `One more include and every receiver fails SPF for every message.`
      : `Receivers stop at this point and return permerror: SPF fails for every message from ${domain.fqdn}.`;
  events.push({
    type: 'raise',
    rule: RULE_OF[now],
    severity: now === 'near' ? 'warning' : 'critical',
    dedupeKey: keyOf(now),
    domain,
    title: changes[0] && now !== 'void' ? `${title} — ${changes[0]}` : title,
    body: `${lead}${consequence} The record's terms cost: ${costs(r)}.${disagreement(r) ? ` ${disagreement(r)}` : ''}`,
    details: { lookups: r.lookups, voids: r.voids, changes },
  });
  return events;
}
/**
 * SPF's lookup budget, counted live through the DNS watch's client (RFC 7208 §4.6.4): hourly (a vendor's
 * include can grow at any time and the DNS watch sees only the domain's own record) and at once when the DNS
 * watch sees the SPF record change. A resolver failure is no evidence: nothing is raised or resolved on it.
 */
export default liveCheck('spf_lookups', {
  words: "SPF's DNS lookup budget (RFC 7208: at most 10)",
  per: 'domain',
  cadence: { periodSeconds: 3600, retrySeconds: 300, afterDnsChange: ['spf'] },
  // Each probe asks about 10 questions, most of them answered from the resolver's cache (vendors' includes
  // are shared by many domains): 64 in flight stays far under the DNS watch's 100 queries a second.
  caps: { concurrency: 64, perTick: 200 },
  settingsKey: 'spfLookups',
  uses: ['dns'],
  result: resultSchema,
  async probe(ctx) {
    const { fqdn, accountId, domainId } = ctx.target;
    if (!fqdn || domainId === null) return { status: 'not_applicable', words: 'not a domain' };
    const tree = await spfLookupTree(fqdn, dnsResolveOver(ctx.lookup));
    if (tree.status === 'temperror') return { status: 'unknown', words: tree.problems[0] ?? 'DNS failed' };
    if (tree.status === 'none') return { status: 'not_applicable', words: `${fqdn} publishes no SPF record` };
    return {
      status: 'checked',
      result: { ...tree, service: ctx.mirror.serviceSpfCount(accountId, domainId) },
    };
  },
  rules: {
    spfLookupBudget: {
      alerts: {
        spf_lookups_near_limit: {
          label: 'SPF lookups near the limit',
          description: 'The SPF record needs 9 or 10 of its 10 DNS lookups; ends when it needs fewer.',
          severity: 'warning',
          details,
          words: 'SPF near its 10 DNS lookups',
        },
        spf_lookups_over_limit: {
          label: 'SPF over 10 lookups',
          description:
            'The SPF record needs more than 10 DNS lookups, so receivers fail it (permerror); ends when it needs 10 or fewer.',
          severity: 'critical',
          details,
          words: 'SPF over 10 DNS lookups (permerror)',
        },
        spf_void_lookups: {
          label: 'SPF void lookups',
          description:
            'The SPF record makes more than 2 lookups that find nothing, so receivers fail it (permerror); ends when it makes 2 or fewer.',
          severity: 'critical',
          details,
          words: 'SPF has too many void lookups (permerror)',
        },
      },
      run: budgetEvents,
    },
  },
  shown: {
    label: 'SPF lookups',
    text: (r) =>
      `${r.lookups} of ${SPF_LOOKUP_LIMIT} DNS lookups, ${r.voids} void${r.service ? ` (the service counts ${r.service.count})` : ''}`,
    // The service's count differing from ours is said beside it (details), not as a problem of the record:
    // the service reads the records on its own schedule, so a fine record it counted earlier is still fine.
    problems: (r) => [
      ...r.problems,
      ...(r.status === 'ok' && r.lookups >= NEAR_LIMIT
        ? [`${r.lookups} of ${SPF_LOOKUP_LIMIT} lookups: one more include and receivers fail SPF`]
        : []),
    ],
    details: (r) => [
      { label: 'Record', text: r.record ?? 'none' },
      { label: 'Lookup tree', text: treeLines(r.terms).join('\n') || 'no DNS-querying terms' },
      {
        label: 'The service’s count',
        text: r.service ? (disagreement(r) ?? `${r.service.count}, the same`) : 'not read yet',
      },
    ],
  },
});
