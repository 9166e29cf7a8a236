/**
 * The demo's mail traffic model: how many messages each source sent as an Acme domain on a given day, from
 * which addresses, to which receiver (Gmail, Outlook, Yahoo), and how each message authenticated. Receivers'
 * DMARC aggregate reports (./reports.ts) are written from these rows, so the volumes the service computes
 * after ingesting them follow the plan: weekly seasonality, slow growth, campaign days, forwarding losses,
 * outages and spoofing waves.
 */
import type { DmarcPolicy } from '../../shared/email-auth/dmarcRecord.ts';
import {
  dmarcPolicyOn,
  firstDay,
  sendsMailOn,
  spfOn,
  type AbuseUse,
  type DomainPlan,
  type SenderUse,
} from './portfolio.ts';
import type { Prng } from './prng.ts';
import { SENDERS, senderAddresses, type SenderKey } from './senders.ts';
import { SPF_LOOKUP_LIMIT, spfLookupCount } from './zone.ts';

/** The mailbox providers that send the demo's aggregate reports. */
export const RECEIVERS = ['google', 'outlook', 'yahoo'] as const;
export type Receiver = (typeof RECEIVERS)[number];

/** Share of recipients each receiver hosts. */
const RECEIVER_SHARE: Record<Receiver, number> = { google: 0.53, outlook: 0.3, yahoo: 0.17 };

/** Relative volume by UTC weekday (Sunday first): business mail peaks mid-week, drops at weekends. */
const WEEKDAY_FACTOR = [0.32, 0.97, 1.06, 1.08, 1.03, 0.94, 0.38];

/** One row of a receiver's report: messages from one address with one authentication outcome. */
export interface TrafficRow {
  sender: SenderKey;
  sourceIp: string;
  count: number;
  /** DMARC-aligned verdicts (policy_evaluated). */
  dkimAligned: boolean;
  spfAligned: boolean;
  /** Raw results the receiver saw (auth_results). */
  dkim: { domain: string; selector: string; result: 'pass' | 'fail' } | null;
  spf: { domain: string; result: 'pass' | 'fail' | 'softfail' | 'none' | 'permerror' };
  envelopeFrom: string;
  disposition: 'none' | 'quarantine' | 'reject';
  /** Policy override the receiver applied (forwarded, sampled_out). */
  reason: 'forwarded' | 'sampled_out' | null;
}

/** The policy receivers applied that day and the traffic each receiver saw. */
export interface DayTraffic {
  policy: { p: DmarcPolicy; sp: DmarcPolicy; pct: number; adkim: 'r' | 's'; aspf: 'r' | 's' };
  byReceiver: Record<Receiver, TrafficRow[]>;
}

const DAY_MS = 86_400_000;

/** The UTC weekday (0 = Sunday) of plan day `day` relative to `now`. */
export function weekdayOf(now: Date, day: number): number {
  return new Date(now.getTime() + day * DAY_MS).getUTCDay();
}

/** Legitimate messages the domain sent on `day` (before splitting among senders). */
export function legitimateVolume(plan: DomainPlan, now: Date, day: number, prng: Prng): number {
  if (!sendsMailOn(plan, day)) return 0;
  const growth = 1 + (0.12 * (day + 90)) / 90;
  const noise = Math.max(0.6, prng.normal(1, 0.07));
  return Math.round(plan.weekdayVolume * WEEKDAY_FACTOR[weekdayOf(now, day)]! * growth * noise);
}

function abuseVolume(abuse: AbuseUse, day: number, prng: Prng): number {
  if (day < abuse.from || day > abuse.to) return 0;
  const t = abuse.to === abuse.from ? 1 : (day - abuse.from) / (abuse.to - abuse.from);
  const base = abuse.startVolume + (abuse.endVolume - abuse.startVolume) * t;
  return Math.max(0, Math.round(base * Math.max(0.3, prng.normal(1, 0.25))));
}

/** Splits `total` into parts proportional to `weights` (integers summing to total). */
export function splitCount(total: number, weights: readonly number[], prng: Prng): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  let rest = total - parts.reduce((a, b) => a + b, 0);
  while (rest > 0) {
    parts[prng.int(0, parts.length - 1)]! += 1;
    rest--;
  }
  return parts;
}

/** Spreads a count over a few of the sender's addresses (busier senders use more). */
function spreadOverAddresses(key: SenderKey, count: number, prng: Prng): { ip: string; count: number }[] {
  const pool = senderAddresses(SENDERS[key]);
  // Small flows come from one host; big ones are load-balanced over a few (a receiver's report then lists each).
  const used = Math.min(pool.length, count > 3000 ? 3 : count > 500 ? 2 : 1);
  const start = prng.int(0, pool.length - 1);
  const ips = Array.from({ length: used }, (_, i) => pool[(start + i) % pool.length]!);
  const weights = ips.map(() => 0.5 + prng.next());
  return splitCount(count, weights, prng)
    .map((c, i) => ({ ip: ips[i]!, count: c }))
    .filter((p) => p.count > 0);
}

interface Outcome {
  dkimAligned: boolean;
  spfAligned: boolean;
  share: number;
}

function outcomesOf(use: SenderUse, spfWorks: boolean): Outcome[] {
  const d = use.dkimAligned;
  const s = spfWorks ? use.spfAligned : 0;
  return [
    { dkimAligned: true, spfAligned: true, share: d * s },
    { dkimAligned: true, spfAligned: false, share: d * (1 - s) },
    { dkimAligned: false, spfAligned: true, share: (1 - d) * s },
    { dkimAligned: false, spfAligned: false, share: (1 - d) * (1 - s) },
  ];
}

/** What the receiver does with a message under the day's policy. */
function dispositionOf(
  pass: boolean,
  policy: DayTraffic['policy'],
  forwarded: boolean,
  prng: Prng,
): Pick<TrafficRow, 'disposition' | 'reason'> {
  if (pass || policy.p === 'none') return { disposition: 'none', reason: null };
  // Receivers that recognise a known forwarder deliver despite the failure (RFC 7489 §6.7 local policy).
  if (forwarded && prng.chance(0.5)) return { disposition: 'none', reason: 'forwarded' };
  if (policy.pct < 100 && !prng.chance(policy.pct / 100)) {
    // Sampled out: the next less strict policy applies (RFC 7489 §6.6.4).
    return { disposition: policy.p === 'reject' ? 'quarantine' : 'none', reason: 'sampled_out' };
  }
  return { disposition: policy.p, reason: null };
}

/** The traffic of plan day `day` as the receivers saw it, or null when no report covers it. */
export function trafficOn(plan: DomainPlan, now: Date, day: number, prng: Prng): DayTraffic | null {
  const policy = dmarcPolicyOn(plan, day);
  // Without a DMARC record, receivers send no aggregate reports.
  if (!policy || day < firstDay(plan)) return null;
  const { fqdn } = plan;
  const spfPlan = spfOn(plan, day);
  // An SPF record over the lookup limit is a permerror at receivers: never an aligned pass.
  const spfBroken = spfPlan !== null && spfLookupCount(spfPlan) > SPF_LOOKUP_LIMIT;
  const spfWorks = spfPlan !== null && !spfBroken;
  const byReceiver: Record<Receiver, TrafficRow[]> = { google: [], outlook: [], yahoo: [] };
  const receiverWeights = RECEIVERS.map((r) => RECEIVER_SHARE[r] * Math.max(0.7, prng.normal(1, 0.06)));

  const add = (rows: Omit<TrafficRow, 'sourceIp' | 'count' | 'disposition' | 'reason'>, count: number) => {
    const forwarded = rows.sender === 'forwarder';
    splitCount(count, receiverWeights, prng).forEach((perReceiver, i) => {
      for (const part of spreadOverAddresses(rows.sender, perReceiver, prng)) {
        const pass = rows.dkimAligned || rows.spfAligned;
        byReceiver[RECEIVERS[i]!].push({
          ...rows,
          sourceIp: part.ip,
          count: part.count,
          ...dispositionOf(pass, policy, forwarded, prng),
        });
      }
    });
  };

  const legit = legitimateVolume(plan, now, day, prng);
  const forwardedCount = Math.round(legit * plan.forwarded);
  const direct = splitCount(
    legit - forwardedCount,
    plan.senders.map((u) => u.share),
    prng,
  );
  plan.senders.forEach((use, i) => {
    const sender = SENDERS[use.sender];
    const outcomes = outcomesOf(use, spfWorks);
    splitCount(
      direct[i]!,
      outcomes.map((o) => o.share),
      prng,
    ).forEach((count, j) => {
      const o = outcomes[j]!;
      if (count === 0) return;
      const ownReturnPath = use.spfAligned > 0 && spfPlan !== null;
      const envelopeFrom = o.spfAligned || ownReturnPath ? fqdn : sender.bounceDomain;
      const spfResult = o.spfAligned
        ? 'pass'
        : envelopeFrom === fqdn
          ? spfBroken
            ? 'permerror'
            : spfPlan === null
              ? 'none'
              : 'softfail'
          : 'pass';
      add(
        {
          sender: use.sender,
          dkimAligned: o.dkimAligned,
          spfAligned: o.spfAligned,
          dkim: o.dkimAligned
            ? { domain: fqdn, selector: sender.dkimSelector, result: 'pass' }
            : { domain: sender.ownDkimDomain, selector: sender.dkimSelector, result: 'pass' },
          spf: { domain: envelopeFrom, result: spfResult },
          envelopeFrom,
        },
        count,
      );
    });
  });

  if (forwardedCount > 0) {
    // Forwarding keeps the original envelope-from but breaks SPF; DKIM survives unless the list edits the body.
    const [intact, broken] = splitCount(forwardedCount, [0.7, 0.3], prng);
    const selector = plan.senders[0] ? SENDERS[plan.senders[0].sender].dkimSelector : 'default';
    const forwardedRow = (dkimPass: boolean) => ({
      sender: 'forwarder' as const,
      dkimAligned: dkimPass,
      spfAligned: false,
      dkim: { domain: fqdn, selector, result: dkimPass ? ('pass' as const) : ('fail' as const) },
      spf: { domain: fqdn, result: spfPlan === null ? ('none' as const) : ('fail' as const) },
      envelopeFrom: fqdn,
    });
    if (intact) add(forwardedRow(true), intact);
    if (broken) add(forwardedRow(false), broken);
  }

  for (const abuse of plan.abuse) {
    const count = abuseVolume(abuse, day, prng);
    if (count === 0) continue;
    const sender = SENDERS[abuse.sender];
    add(
      {
        sender: abuse.sender,
        dkimAligned: false,
        spfAligned: false,
        dkim: sender.ownDkimDomain
          ? { domain: sender.ownDkimDomain, selector: 'mail', result: 'pass' }
          : null,
        spf: { domain: fqdn, result: spfPlan === null ? 'none' : 'fail' },
        envelopeFrom: fqdn,
      },
      count,
    );
  }
  return { policy, byReceiver };
}
