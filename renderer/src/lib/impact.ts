/**
 * The policy impact preview (issue 9 item 4), pure: before DMARC enforcement is raised, what the last 30
 * days of reported mail say the new policy would have done — which sources and how many messages would have
 * been quarantined or rejected (those failing DMARC), which of them are registered threats and which look
 * legitimate. (The SPF change's impact is ./spfImpact.ts.)
 *
 * Input is the mirror's data (domainDetail's sendingServices / failedSources rows, the interface's
 * SendingSource shape, and the mail_volume history); nothing here reads the network.
 */
import { isDmarcPolicy, policyStrength, type DmarcPolicy } from '../../../shared/email-auth/dmarcRecord.ts';
import type { HistoryRows } from '../../../shared/bridge/results.ts';
import type { StoredSource } from '../../../shared/bridge/storedAnswers.ts';
import type { components } from '../../../shared/api/types.gen.ts';
import { fieldsOf } from './shape.ts';

type SendingSource = components['schemas']['SendingSource'];

/** One reported sending source: the interface's SendingSource (status null when the answer left it out). */
export type ImpactSource = Omit<SendingSource, 'status'> & { status: SendingSource['status'] | null };

/** One day of the mail_volume history, as much as the impact reads of it. */
export type VolumeDay = Pick<
  HistoryRows['mail_volume'],
  'date' | 'total' | 'dmarcFail' | 'quarantined' | 'rejected'
>;

/** The enforcement in force or proposed: p and pct (pct 100 when the record has none). */
export interface Enforcement {
  p: DmarcPolicy;
  pct: number;
}

export type SourceVerdict = 'threat' | 'legitimate' | 'unknown';

export interface SourceImpact {
  name: string;
  /** Messages failing DMARC in the window. */
  failing: number;
  /** Of those, how many the proposed policy would have quarantined or rejected (pct applied). */
  affected: number;
  total: number;
  verdict: SourceVerdict;
  /** Why the verdict: "registered threat", "passes DMARC for 97 % of its mail", … */
  reasons: string[];
}

export interface DmarcImpact {
  /** False when the change does not raise enforcement (then nothing new would be held back). */
  raised: boolean;
  disposition: 'quarantine' | 'reject' | null;
  /** Messages failing DMARC that the proposed policy applies to, over the window. */
  affectedMessages: number;
  /** Of those, from registered threats (the point of the change) and from sources that look legitimate. */
  threatMessages: number;
  legitimateMessages: number;
  unknownMessages: number;
  sources: SourceImpact[];
  /** Reported mail in the window (mail_volume), and already quarantined/rejected under the current policy. */
  window: { days: number; total: number; failing: number; alreadyHeld: number } | null;
  /** What the data cannot tell. */
  caveats: string[];
}

/** A source that passes DMARC for at least this share of its own mail is treated as a legitimate sender. */
export const LEGITIMATE_PASS_SHARE = 50;

/** Parses `p`/`pct` from the change of updateDmarcPolicy ({policy} or {p}) or updateHostedDmarc (tags). */
export function proposedEnforcement(current: Enforcement, change: unknown): Enforcement {
  const body = fieldsOf(change);
  const asked = body.policy ?? body.p;
  const p = isDmarcPolicy(asked) ? asked : current.p;
  const pct = typeof body.pct === 'number' ? body.pct : current.pct;
  return { p, pct };
}

/** Share of mail a policy holds back (quarantine or reject): 0 under p=none. */
function heldShare(e: Enforcement): number {
  return e.p === 'none' ? 0 : Math.max(0, Math.min(100, e.pct)) / 100;
}

/** A kept sender with the counts its answer left out read as 0 (a sender without a name is skipped). */
function impactSource(s: StoredSource): ImpactSource | null {
  if (!s.source_name) return null;
  return {
    source_name: s.source_name,
    total_count: s.total_count ?? 0,
    dmarc: { pass: s.dmarc?.pass ?? 0, fail: s.dmarc?.fail ?? 0 },
    compliance: s.compliance ?? 0,
    status: s.status ?? null,
    is_registered_threat: s.is_registered_threat ?? false,
  };
}

/** Merges the mirror's two source lists (the same source may be in both) by name, keeping the larger counts. */
export function mergeSources(
  ...lists: readonly (readonly StoredSource[] | null | undefined)[]
): ImpactSource[] {
  const byName = new Map<string, ImpactSource>();
  for (const list of lists) {
    for (const kept of list ?? []) {
      const source = impactSource(kept);
      if (!source) continue;
      const known = byName.get(source.source_name);
      if (!known || source.total_count > known.total_count) byName.set(source.source_name, source);
    }
  }
  return [...byName.values()];
}

function classify(source: ImpactSource): { verdict: SourceVerdict; reasons: string[] } {
  if (source.is_registered_threat) return { verdict: 'threat', reasons: ['registered threat'] };
  const total = source.dmarc.pass + source.dmarc.fail;
  const passShare = total > 0 ? (100 * source.dmarc.pass) / total : 0;
  const reasons: string[] = [];
  if (passShare >= LEGITIMATE_PASS_SHARE)
    reasons.push(`passes DMARC for ${Math.round(passShare)} % of its mail`);
  else if (source.dmarc.pass > 0) reasons.push(`passes DMARC for some of its mail (${source.dmarc.pass})`);
  if (source.status === 'compliant') reasons.push('compliant');
  // The service names a source after the known sending service whose network it is in (HubSpot, Mailchimp);
  // other sources carry a host name or an address.
  const knownSender = !source.source_name.includes('.') && !source.source_name.includes(':');
  if (knownSender) reasons.push('known sending service');
  if (
    reasons.length > 0 &&
    (passShare >= LEGITIMATE_PASS_SHARE || source.status === 'compliant' || knownSender)
  )
    return { verdict: 'legitimate', reasons };
  return { verdict: 'unknown', reasons: reasons.length > 0 ? reasons : ['never passes DMARC'] };
}

/**
 * What raising enforcement from `current` to `proposed` would have done to the window's reported mail.
 * A failing message is held back under the new policy with probability pct: the counts are the expected
 * numbers (rounded), as receivers sample.
 */
export function dmarcImpact(
  current: Enforcement,
  proposed: Enforcement,
  sources: readonly ImpactSource[],
  volume: readonly VolumeDay[] = [],
): DmarcImpact {
  const raised =
    policyStrength(proposed.p) > policyStrength(current.p) ||
    (proposed.p !== 'none' && proposed.p === current.p && proposed.pct > current.pct);
  const share = heldShare(proposed);
  const rows: SourceImpact[] = sources
    .filter((s) => s.dmarc.fail > 0)
    .map((s) => {
      const { verdict, reasons } = classify(s);
      return {
        name: s.source_name,
        failing: s.dmarc.fail,
        affected: Math.round(s.dmarc.fail * share),
        total: s.total_count,
        verdict,
        reasons,
      };
    })
    .sort((a, b) => b.affected - a.affected || b.failing - a.failing || a.name.localeCompare(b.name));
  const sum = (verdict: SourceVerdict) =>
    rows.filter((r) => r.verdict === verdict).reduce((n, r) => n + r.affected, 0);
  const days = volume.filter((d) => d.total !== null);
  const caveats = [
    'Counts are what receivers reported for the window; mail from receivers that send no reports is not in them.',
  ];
  if (proposed.pct < 100 && proposed.p !== 'none')
    caveats.push(
      `With pct=${proposed.pct} receivers apply the policy to a sample: counts are expected values.`,
    );
  if (sources.length === 0)
    caveats.push('No sending sources are in the mirror yet: the impact cannot be told.');
  return {
    raised,
    disposition: proposed.p === 'none' ? null : proposed.p,
    affectedMessages: rows.reduce((n, r) => n + r.affected, 0),
    threatMessages: sum('threat'),
    legitimateMessages: sum('legitimate'),
    unknownMessages: sum('unknown'),
    sources: rows,
    window:
      days.length > 0
        ? {
            days: days.length,
            total: days.reduce((n, d) => n + (d.total ?? 0), 0),
            failing: days.reduce((n, d) => n + (d.dmarcFail ?? 0), 0),
            alreadyHeld: days.reduce((n, d) => n + (d.quarantined ?? 0) + (d.rejected ?? 0), 0),
          }
        : null,
    caveats,
  };
}
