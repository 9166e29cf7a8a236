/**
 * The SPF impact preview (issue 9), pure: before a hosted SPF change is sent (the all qualifier, an include
 * added or removed, an IP action added or removed), which of the sources the last 30 days of reports name
 * would stop passing SPF or fail it harder, and with how many messages.
 *
 * The domain publishes `v=spf1 include:<hosted record> <all>`: mail passes when the hosted record passes it
 * (an Allow network, an include), and otherwise gets the domain's all (a Reject makes the hosted record fail
 * the address, which the include treats as no match, so the all decides then too).
 *
 * The reports carry no SPF result per source the mirror keeps, only the source's name and its DMARC counts,
 * so sources are placed by name: a source named after a sending service (Google, SendGrid) is covered by an
 * include under that service's domain (include:_spf.google.com) or naming it (include:_spf.hubspot.example,
 * a label equal to the service's name or its domain's first label); a source named by its address is matched
 * against the Allow and Reject networks; a source named by a host's domain, by an include under it. What an
 * include's networks hold is not in the reports: a source they might cover is reported as unsure.
 */
import { includeOwner, KNOWN_SENDER_NAMES, ORGANISATIONS } from '../../../shared/email-auth/knownSenders.ts';
import type { SpfComposition } from '../../../shared/email-auth/hostedSpf.ts';
import {
  formatNetwork,
  parseIpNetwork,
  toNetwork,
  type IpNetwork,
} from '../../../shared/email-auth/ipAddress.ts';
import { normalizeDomain } from '../../../shared/email-auth/protocols.ts';
import type { SpfAll } from '../../../shared/email-auth/spfRecord.ts';
import type { ImpactSource } from './impact.ts';

export type SpfOutcome = 'pass' | 'neutral' | 'softfail' | 'fail';

const ALL_OUTCOME: Record<SpfAll, SpfOutcome> = {
  '+all': 'pass',
  '?all': 'neutral',
  '~all': 'softfail',
  '-all': 'fail',
};
const RANK: Record<SpfOutcome, number> = { pass: 0, neutral: 1, softfail: 2, fail: 3 };

/** Where a source stands under a record. */
export interface Placement {
  /** What receivers give its mail, or null when the reports cannot tell. */
  outcome: SpfOutcome | null;
  /** When unsure: the outcome unless an include's networks (not in the reports) hold it. */
  otherwise?: SpfOutcome;
  /** The term that decides, or why it cannot be told. */
  via: string;
}

export interface SpfSourceChange {
  name: string;
  /** Messages from the source in the window, and how many of them passed / failed DMARC. */
  messages: number;
  dmarcPass: number;
  dmarcFail: number;
  threat: boolean;
  before: Placement;
  after: Placement;
}

export interface SpfChangeImpact {
  /** Sources the change moves to a harder result (pass → soft fail, soft fail → fail…). */
  worse: SpfSourceChange[];
  /** Sources the change moves to an easier one (they would now pass, or fail softer). */
  better: SpfSourceChange[];
  /** Sources whose result may change, but the reports cannot tell (an include's networks). */
  unsure: SpfSourceChange[];
  messages: { worse: number; better: number; unsure: number };
  /** Sources looked at. */
  sources: number;
  caveats: string[];
}

/** The network of an address-named source, or null when the source is named otherwise. */
function addressOf(name: string): IpNetwork | null {
  if (name.includes('/')) return null;
  const parsed = parseIpNetwork(name.trim());
  return 'error' in parsed ? null : parsed.network;
}

function holds(outer: IpNetwork, host: IpNetwork): boolean {
  if (outer.family !== host.family || host.prefix < outer.prefix) return false;
  return toNetwork(host.family, host.address, outer.prefix)?.address === outer.address;
}

function networks(c: SpfComposition, type: 'Allow' | 'Reject'): { term: string; net: IpNetwork }[] {
  return c.ipActions.flatMap((a) => {
    const parsed = a.type === type ? parseIpNetwork(a.ip) : null;
    if (!parsed || 'error' in parsed) return [];
    const term = `${type === 'Reject' ? '-' : ''}ip${parsed.network.family}:${formatNetwork(parsed.network)}`;
    return [{ term, net: parsed.network }];
  });
}

const list = (targets: string[]) =>
  targets
    .slice(0, 2)
    .map((t) => `include:${t}`)
    .join(', ') + (targets.length > 2 ? ` and ${targets.length - 2} more` : '');

/** Labels that name a sending service in an include target: `hubspot`, `amazonses`, `mcsv` (Mailchimp). */
const SERVICE_LABELS: ReadonlyMap<string, string> = new Map([
  ...Object.entries(ORGANISATIONS).map(([domain, name]) => [domain.split('.')[0]!, name] as const),
  ...[...KNOWN_SENDER_NAMES].map((name) => [name.toLowerCase().replace(/\s+/g, ''), name] as const),
]);

/** The sending service an include target belongs to or names, or null (see the module comment). */
export function serviceOfInclude(target: string): string | null {
  const owner = includeOwner(target);
  if (owner) return owner;
  for (const label of normalizeDomain(target).split('.').slice(0, -1)) {
    const named = SERVICE_LABELS.get(label.replace(/^_/, ''));
    if (named) return named;
  }
  return null;
}

/** Where the source named `name` stands under composition `c` (see the module comment). */
export function placeSource(name: string, c: SpfComposition): Placement {
  const fallback: Placement = { outcome: ALL_OUTCOME[c.all], via: c.all };
  const unseen = c.includes.filter((t) => serviceOfInclude(t) === null);
  const address = addressOf(name);
  if (address) {
    const rejected = networks(c, 'Reject').find((n) => holds(n.net, address));
    if (rejected)
      return { outcome: fallback.outcome, via: `${rejected.term}, so the domain's ${c.all} decides` };
    const allowed = networks(c, 'Allow').find((n) => holds(n.net, address));
    if (allowed) return { outcome: 'pass', via: allowed.term };
    if (unseen.length > 0)
      return {
        outcome: null,
        otherwise: fallback.outcome!,
        via: `may be in the networks of ${list(unseen)}`,
      };
    return fallback;
  }
  const known = KNOWN_SENDER_NAMES.has(name) || !name.includes('.');
  const host = normalizeDomain(name);
  const owned = c.includes.find((t) =>
    known ? serviceOfInclude(t) === name : t === host || t.endsWith(`.${host}`),
  );
  if (owned) return { outcome: 'pass', via: `include:${owned}` };
  if (known) return { outcome: fallback.outcome, via: `no include of ${name}'s, so ${c.all}` };
  const allowed = networks(c, 'Allow');
  if (allowed.length > 0 || unseen.length > 0)
    return {
      outcome: null,
      otherwise: fallback.outcome!,
      via: `named by host, not address: may be in ${[...allowed.map((a) => a.term).slice(0, 2), ...(unseen.length ? [list(unseen)] : [])].join(', ')}`,
    };
  return fallback;
}

/** The result as a phrase: "soft fail (~all)", "pass or fail (may be in include:x)". */
export function describePlacement(p: Placement): string {
  const word = (o: SpfOutcome) => (o === 'softfail' ? 'soft fail' : o);
  return p.outcome ? `${word(p.outcome)} (${p.via})` : `pass or ${word(p.otherwise!)} (${p.via})`;
}

/** What changing the record from `before` to `after` does to the reported sources. */
export function spfChangeImpact(
  before: SpfComposition,
  after: SpfComposition,
  sources: readonly ImpactSource[],
): SpfChangeImpact {
  const worse: SpfSourceChange[] = [];
  const better: SpfSourceChange[] = [];
  const unsure: SpfSourceChange[] = [];
  for (const s of sources) {
    const b = placeSource(s.source_name, before);
    const a = placeSource(s.source_name, after);
    const row: SpfSourceChange = {
      name: s.source_name,
      messages: s.total_count,
      dmarcPass: s.dmarc.pass,
      dmarcFail: s.dmarc.fail,
      threat: s.is_registered_threat,
      before: b,
      after: a,
    };
    if (b.outcome && a.outcome) {
      if (RANK[a.outcome] > RANK[b.outcome]) worse.push(row);
      else if (RANK[a.outcome] < RANK[b.outcome]) better.push(row);
    } else if (b.outcome !== a.outcome || b.otherwise !== a.otherwise || b.via !== a.via) unsure.push(row);
  }
  const byMessages = (x: SpfSourceChange, y: SpfSourceChange) =>
    y.messages - x.messages || x.name.localeCompare(y.name);
  const total = (rows: SpfSourceChange[]) => rows.reduce((n, r) => n + r.messages, 0);
  const caveats = [
    'Sources are placed by the names the reports give them: one named after a sending service counts as covered by an include under that service’s domain, one named by its address is matched against the IP actions. The networks behind an include are not in the reports, so this is an approximation.',
    'Mail that also passes aligned DKIM keeps passing DMARC when SPF fails.',
  ];
  if (before.ipActions.some((a) => a.type === 'Reject') || after.ipActions.some((a) => a.type === 'Reject'))
    caveats.push(
      `A Reject makes the hosted record fail the address; the domain’s include treats that as no match, so its ${after.all} decides (${ALL_OUTCOME[after.all] === 'fail' ? 'a hard fail' : `not a hard fail under ${after.all}`}).`,
    );
  if (sources.length === 0)
    caveats.push('No sending sources are in the mirror yet: the impact cannot be told.');
  return {
    worse: worse.sort(byMessages),
    better: better.sort(byMessages),
    unsure: unsure.sort(byMessages),
    messages: { worse: total(worse), better: total(better), unsure: total(unsure) },
    sources: sources.length,
    caveats,
  };
}
