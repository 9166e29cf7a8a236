/**
 * The demo portfolio of "Acme Corp": which domains it holds, in which groups, what each one publishes and
 * how that changes over the 90 days of history, and what mail it sends. Pure data plus two readers
 * (the DMARC policy and the records published on a given day), so the zone, the reports and the tests all
 * follow one plan.
 *
 * Days are counted relative to the seed's `now`: day 0 is today, day -90 the first day of history. A change
 * planned for day d is applied before that day's guard scan, so the scan of day d sees it.
 */
import type { DmarcPolicy } from '../../shared/email-auth/dmarcRecord.ts';
import type { Protocol } from '../../shared/email-auth/protocols.ts';
import type { SpfAll } from '../../shared/email-auth/spfRecord.ts';
import type { SenderKey } from './senders.ts';

/** First day of history (inclusive). */
export const HISTORY_DAYS = 90;

/** Groups of the demo team. */
export const GROUP_NAMES = ['Brands', 'Transactional', 'Regional', 'Parked'] as const;
export type GroupName = (typeof GROUP_NAMES)[number];

/** Who receives the domain's mail (its MX): a provider, the domain's own servers, a null MX, or no MX at all. */
export type InboundMail = 'google' | 'microsoft' | 'own' | 'null-mx' | 'none';

/** Where a record is served from: the service's hosted zone (customer delegates) or the domain's own DNS. */
export type Hosting = 'hosted' | 'self';

/** DMARC tags the plan sets (rua is always the service's reporting address). */
export interface DmarcPlan {
  hosting: Hosting;
  p: DmarcPolicy;
  sp?: DmarcPolicy;
  pct?: number;
  adkim?: 'r' | 's';
  aspf?: 'r' | 's';
  fo?: string;
}

/** The SPF record the plan publishes: the senders' includes, extra terms, then the terminal all. */
export interface SpfPlan {
  hosting: Hosting;
  includes: SenderKey[];
  /** ip4/ip6/a terms written before the includes (own servers). */
  extra?: string[];
  all: SpfAll;
}

/** One legitimate sender of a domain and how well its mail authenticates. */
export interface SenderUse {
  sender: SenderKey;
  /** Share of the domain's legitimate volume. */
  share: number;
  /** Share of its messages with an aligned, passing DKIM signature (custom DKIM set up). */
  dkimAligned: number;
  /** Share of its messages whose envelope-from is the domain (custom return path) and passes SPF. */
  spfAligned: number;
}

/** A source sending mail the domain did not authorize. */
export interface AbuseUse {
  sender: 'threat' | 'spoofer';
  /** First and last day it sends (inclusive). */
  from: number;
  to: number;
  /** Messages per day at `from` and at `to` (linear in between). */
  startVolume: number;
  endVolume: number;
}

/** A dated change to what the domain publishes (applied through the same paths an owner would use). */
export type PlannedChange =
  | { day: number; kind: 'dmarc-tags'; tags: { p?: DmarcPolicy; pct?: number; sp?: DmarcPolicy } }
  | { day: number; kind: 'withdraw'; protocol: Protocol }
  | { day: number; kind: 'restore'; protocol: Protocol }
  | { day: number; kind: 'mta-sts-mode'; mode: 'none' | 'testing' | 'enforce' }
  | { day: number; kind: 'spf-record'; spf: SpfPlan }
  | { day: number; kind: 'inbound'; inbound: InboundMail };

/** One domain of the portfolio. */
export interface DomainPlan {
  fqdn: string;
  /** fqdn of the parent domain (registered before this one). */
  parent?: string;
  group?: GroupName;
  /** Short posture label (the table of the README / final report). */
  posture: string;
  /** Days ago the domain was added to the account. */
  addedDaysAgo: number;
  onboarding: 'pending' | 'in_progress' | 'completed';
  inbound: InboundMail;
  /** Published at setup (before the first scan); null: nothing published. */
  dmarc: DmarcPlan | null;
  spf: SpfPlan | null;
  mtaSts: { mode: 'none' | 'testing' | 'enforce' } | null;
  tlsRpt: { hosting: Hosting } | null;
  /** vmc: logo and Verified Mark Certificate; logo: logo only (BIMI ready, certificate pending). */
  bimi: 'vmc' | 'logo' | null;
  /** Average legitimate messages on a weekday (weekends are quieter). */
  weekdayVolume: number;
  senders: SenderUse[];
  /** Share of legitimate mail that reaches receivers through forwarders (SPF breaks, DKIM mostly survives). */
  forwarded: number;
  abuse: AbuseUse[];
  /** Inbound TLS sessions per day reported by TLS-RPT (when tlsRpt is set). */
  inboundSessions: number;
  /** TLS failures reported on given days (inclusive ranges). */
  tlsFailures: TlsFailurePlan[];
  changes: PlannedChange[];
}

/** TLS failures a domain's TLS reports carry between two days. */
export interface TlsFailurePlan {
  from: number;
  to: number;
  resultType: string;
  /** Share of the day's sessions that fail this way. */
  share: number;
  /** Receiving MX the failures are reported against. */
  mx: string;
}

const full = (sender: SenderKey, share: number): SenderUse => ({
  sender,
  share,
  dkimAligned: 0.995,
  spfAligned: 0.99,
});

/** The demo portfolio, in the order domains are added. */
export const PORTFOLIO: readonly DomainPlan[] = [
  {
    fqdn: 'acme.example',
    group: 'Brands',
    posture:
      'Fully protected: DMARC p=reject (rolled out from p=none), SPF, MTA-STS enforce, TLS-RPT, BIMI with VMC; SPF outage in week 3',
    addedDaysAgo: 120,
    onboarding: 'completed',
    inbound: 'google',
    dmarc: { hosting: 'hosted', p: 'none', adkim: 'r', aspf: 'r', fo: '1' },
    spf: { hosting: 'hosted', includes: ['google', 'sendgrid', 'mailchimp'], all: '-all' },
    mtaSts: { mode: 'enforce' },
    tlsRpt: { hosting: 'hosted' },
    bimi: 'vmc',
    weekdayVolume: 16_000,
    senders: [
      full('google', 0.45),
      full('sendgrid', 0.3),
      { sender: 'mailchimp', share: 0.25, dkimAligned: 0.995, spfAligned: 0.0 },
    ],
    forwarded: 0.015,
    abuse: [{ sender: 'spoofer', from: -90, to: 0, startVolume: 30, endVolume: 90 }],
    inboundSessions: 4200,
    tlsFailures: [
      {
        from: -52,
        to: -51,
        resultType: 'sts-policy-fetch-error',
        share: 0.04,
        mx: 'aspmx.l.google.com',
      },
    ],
    changes: [
      { day: -72, kind: 'withdraw', protocol: 'spf' },
      { day: -70, kind: 'restore', protocol: 'spf' },
      { day: -66, kind: 'dmarc-tags', tags: { p: 'quarantine', pct: 25 } },
      { day: -52, kind: 'dmarc-tags', tags: { pct: 100 } },
      { day: -35, kind: 'dmarc-tags', tags: { p: 'reject' } },
    ],
  },
  {
    fqdn: 'shop.acme.example',
    parent: 'acme.example',
    group: 'Brands',
    posture: 'MTA-STS in testing mode (TLS reports show an expired certificate on mx2); DMARC p=quarantine',
    addedDaysAgo: 110,
    onboarding: 'completed',
    inbound: 'own',
    dmarc: { hosting: 'hosted', p: 'quarantine' },
    spf: { hosting: 'hosted', includes: ['ses', 'klaviyo'], all: '-all' },
    mtaSts: { mode: 'none' },
    tlsRpt: { hosting: 'hosted' },
    bimi: null,
    weekdayVolume: 5200,
    senders: [full('ses', 0.75), { sender: 'klaviyo', share: 0.25, dkimAligned: 0.99, spfAligned: 0.97 }],
    forwarded: 0.01,
    abuse: [],
    inboundSessions: 900,
    tlsFailures: [
      {
        from: -21,
        to: -18,
        resultType: 'certificate-expired',
        share: 0.45,
        mx: 'mx2.shop.acme.example',
      },
      { from: -40, to: -40, resultType: 'sts-policy-fetch-error', share: 0.08, mx: 'mx1.shop.acme.example' },
    ],
    changes: [{ day: -40, kind: 'mta-sts-mode', mode: 'testing' }],
  },
  {
    fqdn: 'acme-brand.example',
    group: 'Brands',
    posture: 'BIMI ready: DMARC p=reject, SPF, BIMI logo published (Tiny PS SVG), certificate pending',
    addedDaysAgo: 100,
    onboarding: 'completed',
    inbound: 'microsoft',
    dmarc: { hosting: 'hosted', p: 'reject', pct: 100 },
    spf: { hosting: 'self', includes: ['microsoft', 'hubspot'], all: '-all' },
    mtaSts: null,
    tlsRpt: null,
    bimi: 'logo',
    weekdayVolume: 900,
    senders: [full('microsoft', 0.7), full('hubspot', 0.3)],
    forwarded: 0.02,
    abuse: [],
    inboundSessions: 0,
    tlsFailures: [],
    changes: [],
  },
  {
    fqdn: 'acme-news.example',
    group: 'Brands',
    posture: 'DMARC p=none (monitoring): HubSpot not yet aligned',
    addedDaysAgo: 95,
    onboarding: 'completed',
    inbound: 'google',
    dmarc: { hosting: 'hosted', p: 'none' },
    spf: { hosting: 'hosted', includes: ['mailchimp', 'hubspot'], all: '~all' },
    mtaSts: null,
    tlsRpt: null,
    bimi: null,
    weekdayVolume: 3200,
    senders: [
      { sender: 'mailchimp', share: 0.75, dkimAligned: 0.96, spfAligned: 0.0 },
      { sender: 'hubspot', share: 0.25, dkimAligned: 0.05, spfAligned: 0.0 },
    ],
    forwarded: 0.02,
    abuse: [],
    inboundSessions: 0,
    tlsFailures: [],
    changes: [],
  },
  {
    fqdn: 'acme-mail.example',
    group: 'Transactional',
    posture: 'Protected: DMARC p=reject, SPF, MTA-STS enforce, TLS-RPT (no BIMI)',
    addedDaysAgo: 120,
    onboarding: 'completed',
    inbound: 'microsoft',
    dmarc: { hosting: 'hosted', p: 'reject', adkim: 's' },
    spf: { hosting: 'hosted', includes: ['microsoft', 'sendgrid', 'postmark'], all: '-all' },
    mtaSts: { mode: 'enforce' },
    tlsRpt: { hosting: 'hosted' },
    bimi: null,
    weekdayVolume: 9000,
    senders: [full('microsoft', 0.35), full('sendgrid', 0.45), full('postmark', 0.2)],
    forwarded: 0.01,
    abuse: [{ sender: 'spoofer', from: -60, to: -45, startVolume: 15, endVolume: 40 }],
    inboundSessions: 2600,
    tlsFailures: [
      {
        from: -90,
        to: 0,
        resultType: 'starttls-not-supported',
        share: 0.004,
        mx: 'acme-mail-example.mail.protection.outlook.com',
      },
    ],
    changes: [],
  },
  {
    fqdn: 'acme-pay.example',
    group: 'Transactional',
    posture: 'Under attack: a registered threat spoofs it (fails DMARC, quarantined); DMARC p=quarantine',
    addedDaysAgo: 105,
    onboarding: 'completed',
    inbound: 'microsoft',
    dmarc: { hosting: 'hosted', p: 'quarantine' },
    spf: { hosting: 'hosted', includes: ['ses', 'microsoft'], all: '-all' },
    mtaSts: null,
    tlsRpt: null,
    bimi: null,
    weekdayVolume: 2600,
    senders: [full('ses', 0.85), full('microsoft', 0.15)],
    forwarded: 0.005,
    abuse: [{ sender: 'threat', from: -14, to: 0, startVolume: 60, endVolume: 900 }],
    inboundSessions: 0,
    tlsFailures: [],
    changes: [],
  },
  {
    fqdn: 'acme-support.example',
    group: 'Transactional',
    posture: 'Recently disconnected: its DMARC delegation was removed 3 days ago and is still missing',
    addedDaysAgo: 100,
    onboarding: 'completed',
    inbound: 'google',
    dmarc: { hosting: 'hosted', p: 'quarantine' },
    spf: { hosting: 'self', includes: ['google', 'zendesk'], all: '~all' },
    mtaSts: null,
    tlsRpt: null,
    bimi: null,
    weekdayVolume: 1400,
    senders: [{ sender: 'zendesk', share: 0.75, dkimAligned: 0.99, spfAligned: 0.0 }, full('google', 0.25)],
    forwarded: 0.03,
    abuse: [],
    inboundSessions: 0,
    tlsFailures: [],
    changes: [{ day: -3, kind: 'withdraw', protocol: 'dmarc' }],
  },
  {
    fqdn: 'acme-uk.example',
    group: 'Regional',
    posture: 'Protected: DMARC p=reject, SPF, MTA-STS enforce, TLS-RPT',
    addedDaysAgo: 115,
    onboarding: 'completed',
    inbound: 'microsoft',
    dmarc: { hosting: 'hosted', p: 'reject' },
    spf: { hosting: 'self', includes: ['microsoft', 'salesforce'], all: '-all' },
    mtaSts: { mode: 'enforce' },
    tlsRpt: { hosting: 'hosted' },
    bimi: null,
    weekdayVolume: 1800,
    senders: [full('microsoft', 0.6), full('salesforce', 0.4)],
    forwarded: 0.01,
    abuse: [],
    inboundSessions: 700,
    tlsFailures: [],
    changes: [],
  },
  {
    fqdn: 'acme-de.example',
    group: 'Regional',
    posture: 'Partial rollout: DMARC p=quarantine pct=50, SPF ~all, TLS-RPT without MTA-STS',
    addedDaysAgo: 115,
    onboarding: 'completed',
    inbound: 'microsoft',
    dmarc: { hosting: 'self', p: 'quarantine', pct: 50 },
    spf: { hosting: 'self', includes: ['microsoft', 'brevo'], all: '~all' },
    mtaSts: null,
    tlsRpt: { hosting: 'self' },
    bimi: null,
    weekdayVolume: 800,
    senders: [full('microsoft', 0.7), { sender: 'brevo', share: 0.3, dkimAligned: 0.9, spfAligned: 0.0 }],
    forwarded: 0.01,
    abuse: [],
    inboundSessions: 350,
    tlsFailures: [],
    changes: [],
  },
  {
    fqdn: 'acme-labs.example',
    posture: 'Missing SPF: DMARC p=quarantine relies on DKIM alone',
    addedDaysAgo: 90,
    onboarding: 'in_progress',
    inbound: 'google',
    dmarc: { hosting: 'self', p: 'quarantine' },
    spf: null,
    mtaSts: null,
    tlsRpt: null,
    bimi: null,
    weekdayVolume: 260,
    senders: [{ sender: 'google', share: 1, dkimAligned: 0.97, spfAligned: 0.0 }],
    forwarded: 0.02,
    abuse: [],
    inboundSessions: 0,
    tlsFailures: [],
    changes: [],
  },
  {
    fqdn: 'acme-legacy.example',
    posture: 'SPF over the 10-lookup limit (permerror at receivers); DMARC p=none',
    addedDaysAgo: 118,
    onboarding: 'completed',
    inbound: 'own',
    dmarc: { hosting: 'self', p: 'none' },
    spf: {
      hosting: 'self',
      extra: ['a'],
      includes: ['microsoft', 'google', 'salesforce', 'sendgrid', 'zendesk'],
      all: '~all',
    },
    mtaSts: null,
    tlsRpt: null,
    bimi: null,
    weekdayVolume: 650,
    senders: [
      { sender: 'microsoft', share: 0.4, dkimAligned: 0.9, spfAligned: 0.0 },
      { sender: 'salesforce', share: 0.25, dkimAligned: 0.3, spfAligned: 0.0 },
      { sender: 'zendesk', share: 0.15, dkimAligned: 0.85, spfAligned: 0.0 },
      { sender: 'sendgrid', share: 0.2, dkimAligned: 0.95, spfAligned: 0.0 },
    ],
    forwarded: 0.02,
    abuse: [],
    inboundSessions: 0,
    tlsFailures: [],
    changes: [],
  },
  {
    fqdn: 'acme-parked.example',
    group: 'Parked',
    posture: 'Parked: no mail (null MX, v=spf1 -all, DMARC p=reject); only spoofing attempts',
    addedDaysAgo: 120,
    onboarding: 'completed',
    inbound: 'null-mx',
    dmarc: { hosting: 'self', p: 'reject', sp: 'reject', adkim: 's', aspf: 's' },
    spf: { hosting: 'self', includes: [], all: '-all' },
    mtaSts: null,
    tlsRpt: null,
    bimi: null,
    weekdayVolume: 0,
    senders: [],
    forwarded: 0,
    abuse: [{ sender: 'spoofer', from: -90, to: 0, startVolume: 8, endVolume: 25 }],
    inboundSessions: 0,
    tlsFailures: [],
    changes: [],
  },
  {
    fqdn: 'acme-old.example',
    group: 'Parked',
    posture: 'Retired: mailboxes moved away 60 days ago; SPF changed to v=spf1 -all, MX removed',
    addedDaysAgo: 120,
    onboarding: 'completed',
    inbound: 'microsoft',
    dmarc: { hosting: 'self', p: 'reject' },
    spf: { hosting: 'self', includes: ['microsoft'], all: '-all' },
    mtaSts: null,
    tlsRpt: null,
    bimi: null,
    weekdayVolume: 120,
    senders: [full('microsoft', 1)],
    forwarded: 0.02,
    abuse: [],
    inboundSessions: 0,
    tlsFailures: [],
    changes: [
      { day: -60, kind: 'spf-record', spf: { hosting: 'self', includes: [], all: '-all' } },
      { day: -60, kind: 'inbound', inbound: 'none' },
    ],
  },
  {
    fqdn: 'acme-events.example',
    posture: 'New domain, nothing published yet (onboarding pending)',
    addedDaysAgo: 4,
    onboarding: 'pending',
    inbound: 'google',
    dmarc: null,
    spf: null,
    mtaSts: null,
    tlsRpt: null,
    bimi: null,
    weekdayVolume: 0,
    senders: [],
    forwarded: 0,
    abuse: [],
    inboundSessions: 0,
    tlsFailures: [],
    changes: [],
  },
];

/** First day the domain exists in the account (its first scan). */
export function firstDay(plan: DomainPlan): number {
  return -Math.min(plan.addedDaysAgo, HISTORY_DAYS);
}

/** Changes planned for `day`, in plan order. */
export function changesOn(plan: DomainPlan, day: number): PlannedChange[] {
  return plan.changes.filter((c) => c.day === day);
}

/** Whether `protocol` is published on `day` (set up at all, and not withdrawn then). */
export function publishedOn(plan: DomainPlan, protocol: Protocol, day: number): boolean {
  const setUp =
    protocol === 'dmarc'
      ? plan.dmarc !== null
      : protocol === 'spf'
        ? plan.spf !== null
        : protocol === 'mta_sts'
          ? plan.mtaSts !== null
          : protocol === 'tls_rpt'
            ? plan.tlsRpt !== null
            : plan.bimi !== null;
  let published = setUp;
  for (const c of plan.changes) {
    if (c.day > day) continue;
    if (c.kind === 'withdraw' && c.protocol === protocol) published = false;
    if (c.kind === 'restore' && c.protocol === protocol) published = true;
  }
  return published;
}

/** The DMARC policy receivers applied on `day` (null when no record was published then). */
export function dmarcPolicyOn(
  plan: DomainPlan,
  day: number,
): { p: DmarcPolicy; sp: DmarcPolicy; pct: number; adkim: 'r' | 's'; aspf: 'r' | 's' } | null {
  if (!plan.dmarc || !publishedOn(plan, 'dmarc', day)) return null;
  let { p, pct } = { p: plan.dmarc.p, pct: plan.dmarc.pct ?? 100 };
  let sp = plan.dmarc.sp;
  for (const c of plan.changes) {
    if (c.day > day || c.kind !== 'dmarc-tags') continue;
    p = c.tags.p ?? p;
    pct = c.tags.pct ?? pct;
    sp = c.tags.sp ?? sp;
  }
  return { p, sp: sp ?? p, pct, adkim: plan.dmarc.adkim ?? 'r', aspf: plan.dmarc.aspf ?? 'r' };
}

/** The SPF plan in effect on `day` (null when none is published then). */
export function spfOn(plan: DomainPlan, day: number): SpfPlan | null {
  if (!plan.spf || !publishedOn(plan, 'spf', day)) return null;
  let spf = plan.spf;
  for (const c of plan.changes) if (c.day <= day && c.kind === 'spf-record') spf = c.spf;
  return spf;
}

/** The MTA-STS mode on `day` (null without MTA-STS). */
export function mtaStsModeOn(plan: DomainPlan, day: number): 'none' | 'testing' | 'enforce' | null {
  if (!plan.mtaSts || !publishedOn(plan, 'mta_sts', day)) return null;
  let mode = plan.mtaSts.mode;
  for (const c of plan.changes) if (c.day <= day && c.kind === 'mta-sts-mode') mode = c.mode;
  return mode;
}

/** Whether the domain still sends its own mail on `day` (a retired domain stops when its SPF becomes -all only). */
export function sendsMailOn(plan: DomainPlan, day: number): boolean {
  if (plan.weekdayVolume === 0 || day < firstDay(plan)) return false;
  const spf = spfOn(plan, day) ?? plan.spf;
  return !(spf && spf.includes.length === 0 && (spf.extra ?? []).length === 0 && plan.senders.length > 0);
}
