/**
 * The reports the demo's receivers send, as the bytes that arrive at the service's reporting addresses:
 *   - DMARC aggregate reports (RFC 7489 Appendix C XML) from google.com, Outlook.com and Yahoo, one per
 *     receiver and UTC day that saw mail (sent as plain XML: the receivers' zip/gzip packing is covered by the
 *     ingest tests with real files, and compressing thousands of reports would only slow the seed down);
 *   - SMTP TLS reports (RFC 8460 JSON) from Google and Microsoft for the domains publishing TLS-RPT, with the
 *     day's MTA-STS policy (or no-policy-found) and the failures the plan schedules.
 * Both are built from the traffic model (./traffic.ts) and the plan (./portfolio.ts); report ids and
 * addresses come from the seeded generator, so the same seed gives byte-identical reports.
 */
import { mtaStsModeOn, type DomainPlan } from './portfolio.ts';
import type { Prng } from './prng.ts';
import { SENDERS, senderAddresses } from './senders.ts';
import { splitCount, trafficOn, weekdayOf, type Receiver, type TrafficRow } from './traffic.ts';
import { mxValues } from './zone.ts';

const DAY_MS = 86_400_000;

/** A report as it reaches the service. */
export interface GeneratedReport {
  /** Who sent it (org name as in the report). */
  reporter: string;
  /** When it arrives (after the day it covers). */
  receivedAt: Date;
  bytes: Uint8Array;
}

/** Midnight UTC starting plan day `day` (day 0: today). */
export function dayStart(now: Date, day: number): Date {
  const t = new Date(now.getTime() + day * DAY_MS);
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
}

const RECEIVER_META: Record<Receiver, { org: string; email: string; extra?: string; sendsAtHour: number }> = {
  google: {
    org: 'google.com',
    email: 'noreply-dmarc-support@google.com',
    extra: 'https://support.google.com/a/answer/2466580',
    sendsAtHour: 1,
  },
  outlook: { org: 'Outlook.com', email: 'dmarcreport@microsoft.com', sendsAtHour: 4 },
  yahoo: { org: 'Yahoo', email: 'dmarchelp@yahooinc.com', sendsAtHour: 6 },
};

const encoder = new TextEncoder();
const XML_SPECIAL = /[&<>]/;

function esc(text: string): string {
  if (!XML_SPECIAL.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function reportIdFor(receiver: Receiver, begin: Date, prng: Prng): string {
  switch (receiver) {
    case 'google':
      // Gmail: a 19/20-digit decimal number.
      return `${prng.int(1, 9)}${Array.from({ length: 19 }, () => prng.int(0, 9)).join('')}`;
    case 'outlook':
      return prng.hex(32);
    case 'yahoo':
      return `${Math.floor(begin.getTime() / 1000)}.${prng.int(100000, 999999)}`;
  }
}

function recordXml(row: TrafficRow, headerFrom: string): string {
  const reason = row.reason === null ? '' : `<reason><type>${row.reason}</type></reason>`;
  const dkim =
    row.dkim === null
      ? ''
      : `<dkim><domain>${esc(row.dkim.domain)}</domain><selector>${esc(row.dkim.selector)}</selector><result>${row.dkim.result}</result></dkim>`;
  return [
    '  <record>',
    `    <row><source_ip>${row.sourceIp}</source_ip><count>${row.count}</count>`,
    `      <policy_evaluated><disposition>${row.disposition}</disposition><dkim>${row.dkimAligned ? 'pass' : 'fail'}</dkim><spf>${row.spfAligned ? 'pass' : 'fail'}</spf>${reason}</policy_evaluated></row>`,
    `    <identifiers><envelope_from>${esc(row.envelopeFrom)}</envelope_from><header_from>${esc(headerFrom)}</header_from></identifiers>`,
    `    <auth_results>${dkim}<spf><domain>${esc(row.spf.domain)}</domain><scope>mfrom</scope><result>${row.spf.result}</result></spf></auth_results>`,
    '  </record>',
  ].join('\n');
}

/** The XML of one aggregate report. */
export function dmarcReportXml(input: {
  receiver: Receiver;
  reportId: string;
  begin: Date;
  fqdn: string;
  policy: { p: string; sp: string; pct: number; adkim: string; aspf: string };
  rows: readonly TrafficRow[];
}): string {
  const meta = RECEIVER_META[input.receiver];
  const begin = Math.floor(input.begin.getTime() / 1000);
  const { policy } = input;
  return [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    '<feedback>',
    '  <version>1.0</version>',
    '  <report_metadata>',
    `    <org_name>${esc(meta.org)}</org_name>`,
    `    <email>${esc(meta.email)}</email>`,
    ...(meta.extra ? [`    <extra_contact_info>${esc(meta.extra)}</extra_contact_info>`] : []),
    `    <report_id>${esc(input.reportId)}</report_id>`,
    `    <date_range><begin>${begin}</begin><end>${begin + 86_399}</end></date_range>`,
    '  </report_metadata>',
    '  <policy_published>',
    `    <domain>${esc(input.fqdn)}</domain><adkim>${policy.adkim}</adkim><aspf>${policy.aspf}</aspf>`,
    `    <p>${policy.p}</p><sp>${policy.sp}</sp><pct>${policy.pct}</pct>`,
    '  </policy_published>',
    ...input.rows.map((r) => recordXml(r, input.fqdn)),
    '</feedback>',
    '',
  ].join('\n');
}

/** The DMARC aggregate reports covering plan day `day` of a domain (one per receiver that saw its mail). */
export function dmarcReportsFor(plan: DomainPlan, now: Date, day: number, prng: Prng): GeneratedReport[] {
  const traffic = trafficOn(plan, now, day, prng.fork('traffic'));
  if (!traffic) return [];
  const begin = dayStart(now, day);
  const reports: GeneratedReport[] = [];
  for (const receiver of Object.keys(traffic.byReceiver) as Receiver[]) {
    const rows = traffic.byReceiver[receiver];
    if (rows.length === 0) continue;
    const ids = prng.fork(`report-id:${receiver}`);
    const reportId = reportIdFor(receiver, begin, ids);
    const xml = dmarcReportXml({ receiver, reportId, begin, fqdn: plan.fqdn, policy: traffic.policy, rows });
    const meta = RECEIVER_META[receiver];
    reports.push({
      reporter: meta.org,
      receivedAt: new Date(begin.getTime() + DAY_MS + meta.sendsAtHour * 3_600_000 + ids.int(0, 3_599_999)),
      bytes: encoder.encode(xml),
    });
  }
  return reports;
}

const TLS_REPORTERS = [
  {
    key: 'google' as const,
    org: 'Google Inc.',
    contact: 'smtp-tls-reporting@google.com',
    share: 0.62,
    sendsAtHour: 2,
  },
  {
    key: 'microsoft' as const,
    org: 'Microsoft Corporation',
    contact: 'tlsrpt-noreply@microsoft.com',
    share: 0.38,
    sendsAtHour: 7,
  },
];

const FAILURE_REASON_CODES: Record<string, string> = {
  'certificate-expired': 'X509_V_ERR_CERT_HAS_EXPIRED',
  'validation-failure': 'X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
};

/** The MTA-STS policy text a sender fetched (the lines RFC 8460 reports carry in policy-string). */
function policyLines(plan: DomainPlan, mode: string): { lines: string[]; mx: string[] } {
  const mx = mxValues(plan.fqdn, plan.inbound).map((v) => v.split(' ')[1]!);
  return {
    lines: ['version: STSv1', `mode: ${mode}`, ...mx.map((m) => `mx: ${m}`), 'max_age: 604800'],
    mx,
  };
}

function receivingIp(mxHost: string): string | undefined {
  const own = /^mx([12])\./.exec(mxHost);
  return own ? `198.18.200.${19 + Number(own[1])}` : undefined;
}

/** The SMTP TLS reports covering plan day `day` of a domain that publishes TLS-RPT (none otherwise). */
export function tlsReportsFor(plan: DomainPlan, now: Date, day: number, prng: Prng): GeneratedReport[] {
  if (!plan.tlsRpt || plan.inboundSessions === 0) return [];
  const begin = dayStart(now, day);
  const seasonal = [0.45, 1, 1.05, 1.05, 1, 0.95, 0.5][weekdayOf(now, day)]!;
  const total = Math.round(plan.inboundSessions * seasonal * Math.max(0.6, prng.normal(1, 0.08)));
  const mode = mtaStsModeOn(plan, day);
  const sts = mode === 'testing' || mode === 'enforce';
  const { lines, mx } = policyLines(plan, mode ?? 'none');
  const failures = plan.tlsFailures.filter((f) => day >= f.from && day <= f.to);
  const perReporter = splitCount(
    total,
    TLS_REPORTERS.map((r) => r.share),
    prng,
  );
  const reports: GeneratedReport[] = [];
  TLS_REPORTERS.forEach((reporter, i) => {
    const sessions = perReporter[i]!;
    if (sessions === 0) return;
    const ips = senderAddresses(SENDERS[reporter.key]);
    const details = failures
      .map((f) => {
        const failed = Math.round(sessions * f.share * Math.max(0.3, prng.normal(1, 0.2)));
        const code = FAILURE_REASON_CODES[f.resultType];
        const ip = receivingIp(f.mx);
        return {
          'result-type': f.resultType,
          'sending-mta-ip': prng.pick(ips),
          'receiving-mx-hostname': f.mx,
          ...(ip ? { 'receiving-ip': ip } : {}),
          'failed-session-count': failed,
          ...(code ? { 'failure-reason-code': code } : {}),
        };
      })
      .filter((d) => d['failed-session-count'] > 0);
    const failed = details.reduce((n, d) => n + d['failed-session-count'], 0);
    const start = begin.toISOString().replace('.000Z', 'Z');
    const end = new Date(begin.getTime() + DAY_MS - 1000).toISOString().replace('.000Z', 'Z');
    const reportId =
      reporter.key === 'google'
        ? `${start}_${plan.fqdn}`
        : `${prng.hex(8)}-${prng.hex(4)}-4${prng.hex(3)}-a${prng.hex(3)}-${prng.hex(12)}`;
    const report = {
      'organization-name': reporter.org,
      'date-range': { 'start-datetime': start, 'end-datetime': end },
      'contact-info': reporter.contact,
      'report-id': reportId,
      policies: [
        {
          policy: sts
            ? {
                'policy-type': 'sts',
                'policy-string': lines,
                'policy-domain': plan.fqdn,
                'mx-host': mx,
              }
            : { 'policy-type': 'no-policy-found', 'policy-domain': plan.fqdn },
          summary: {
            'total-successful-session-count': Math.max(0, sessions - failed),
            'total-failure-session-count': failed,
          },
          ...(details.length > 0 ? { 'failure-details': details } : {}),
        },
      ],
    };
    reports.push({
      reporter: reporter.org,
      receivedAt: new Date(
        begin.getTime() + DAY_MS + reporter.sendsAtHour * 3_600_000 + prng.int(0, 3_599_999),
      ),
      bytes: encoder.encode(JSON.stringify(report)),
    });
  });
  return reports;
}
