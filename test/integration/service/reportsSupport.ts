/**
 * Shared set-up of the report suites (reports, mailAnalytics, tlsRptReports): a service whose resolver is the
 * sandbox zone alone (no real DNS: source naming must not depend on the network), an account of its own with
 * an owner token, domains created through POST /domains, reports uploaded as raw bytes through the sandbox,
 * and builders of small DMARC/TLS reports for the cases the real fixtures do not cover.
 */
import { createSandboxZoneResolver } from '../../../service/dns/sandboxZone.ts';
import type { DnsResolve } from '../../../shared/email-auth/dns.ts';
import { startService, TEST_SANDBOX_KEY } from '../../support/serviceHarness.ts';
import type { ServiceHarness } from '../../support/serviceHarness.ts';

export { listFixtures, readFixture } from '../../unit/service/ingest/fixtureFiles.ts';

/** A started service with an account of the suite's own. */
export interface ReportsWorld {
  svc: ServiceHarness;
  teamId: number;
  ownerUserId: number;
  /** Owner token with domains:read and domains:write. */
  token: string;
}

/** Starts the service (sandbox-zone-only resolver) and creates the suite's account and owner token. */
export async function startReportsWorld(accountName = 'Reports Co'): Promise<ReportsWorld> {
  const started: { svc?: ServiceHarness } = {};
  // The resolver needs the harness's database, which exists only once the service runs.
  const resolver = ((name: string, rrtype: 'TXT') =>
    createSandboxZoneResolver(started.svc!.db)(name, rrtype)) as DnsResolve;
  const svc = await startService({ resolver });
  started.svc = svc;
  const account = await addAccount(svc, accountName);
  const { token } = await svc.createToken(['domains:read', 'domains:write'], { userId: account.ownerUserId });
  return { svc, ...account, token };
}

/** Creates another account (team) through the sandbox. */
export async function addAccount(
  svc: ServiceHarness,
  name: string,
): Promise<{ teamId: number; ownerUserId: number }> {
  const res = await svc.sandbox('POST', '/accounts', { name, plan: 'suite' });
  if (res.status !== 201) throw new Error(`account creation failed: ${JSON.stringify(res.body)}`);
  return { teamId: res.body.data.team_id, ownerUserId: res.body.data.owner_user_id };
}

/** Creates `fqdn` through POST /domains with `token` (an owner's); returns its id. */
export async function createDomain(svc: ServiceHarness, token: string, fqdn: string): Promise<number> {
  const res = await svc.call('POST', '/domains', { token, body: { fqdn } });
  if (res.status !== 201)
    throw new Error(`domain creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as number;
}

/** The answer of an upload control. */
export interface UploadResponse {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Content type a report file is sent with, by its name. */
export function contentTypeOf(name: string): string {
  if (name.endsWith('.gz')) return 'application/gzip';
  if (name.endsWith('.zip')) return 'application/zip';
  if (name.endsWith('.json')) return 'application/json';
  return 'application/xml';
}

/** Uploads report bytes to POST /_sandbox/reports/{kind}. */
export async function upload(
  svc: ServiceHarness,
  kind: 'dmarc' | 'tls',
  bytes: Uint8Array | string,
  options: { contentType?: string; domainId?: number; key?: string | null } = {},
): Promise<UploadResponse> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': options.contentType ?? (kind === 'tls' ? 'application/json' : 'application/xml'),
  };
  const key = options.key === undefined ? TEST_SANDBOX_KEY : options.key;
  if (key !== null) headers['x-sandbox-key'] = key;
  const query = options.domainId === undefined ? '' : `?domain_id=${options.domainId}`;
  const res = await fetch(`${svc.origin}/_sandbox/reports/${kind}${query}`, {
    method: 'POST',
    headers,
    body: typeof bytes === 'string' ? bytes : Buffer.from(bytes),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Uploads and insists on success (201 new, or 200 duplicate when `duplicate`). */
export async function ingest(
  svc: ServiceHarness,
  kind: 'dmarc' | 'tls',
  bytes: Uint8Array | string,
  options: { contentType?: string; domainId?: number } = {},
): Promise<{ id: number; report_id: string; domain_id: number; records: number; messages: number }> {
  const res = await upload(svc, kind, bytes, options);
  if (res.status !== 201) throw new Error(`ingestion failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Row counts of every report table (to show that a refusal changed nothing). */
export function reportTableCounts(svc: ServiceHarness): Record<string, number> {
  const tables = [
    'dmarc_reports',
    'dmarc_report_records',
    'tls_reports',
    'tls_report_policies',
    'tls_failure_details',
    'dashboard_snapshots',
  ];
  return Object.fromEntries(
    tables.map((t) => [t, (svc.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]),
  );
}

/** One <record> of a built aggregate report. */
export interface BuiltRecord {
  ip: string;
  count: number;
  disposition?: 'none' | 'quarantine' | 'reject' | 'pass';
  dkim?: 'pass' | 'fail';
  spf?: 'pass' | 'fail';
}

/** A DMARC aggregate report (RFC 7489 Appendix C) for `domain`, covering begin … end (ISO timestamps). */
export function aggregateXml(options: {
  domain: string;
  reportId: string;
  begin: string;
  end?: string;
  orgName?: string;
  records: BuiltRecord[];
}): string {
  const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  const end = options.end ?? new Date(Date.parse(options.begin) + 86_399_000).toISOString();
  const records = options.records
    .map(
      (r) => `  <record>
    <row>
      <source_ip>${r.ip}</source_ip>
      <count>${r.count}</count>
      <policy_evaluated>
        <disposition>${r.disposition ?? 'none'}</disposition>
        <dkim>${r.dkim ?? 'fail'}</dkim>
        <spf>${r.spf ?? 'fail'}</spf>
      </policy_evaluated>
    </row>
    <identifiers><header_from>${options.domain}</header_from></identifiers>
    <auth_results><spf><domain>${options.domain}</domain><result>${r.spf ?? 'fail'}</result></spf></auth_results>
  </record>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<feedback>
  <version>1.0</version>
  <report_metadata>
    <org_name>${options.orgName ?? 'receiver.example'}</org_name>
    <email>dmarc-reports@receiver.example</email>
    <report_id>${options.reportId}</report_id>
    <date_range><begin>${seconds(options.begin)}</begin><end>${seconds(end)}</end></date_range>
  </report_metadata>
  <policy_published>
    <domain>${options.domain}</domain><adkim>r</adkim><aspf>r</aspf><p>none</p><sp>none</sp><pct>100</pct>
  </policy_published>
${records}
</feedback>
`;
}

/** One failure-details entry of a built TLS report (RFC 8460 names). */
export type BuiltFailure = Record<string, string | number>;

/** An SMTP TLS report (RFC 8460) with one policy for `domain`. */
export function tlsReportJson(options: {
  domain: string;
  reportId: string;
  start: string;
  policyType?: 'sts' | 'tlsa' | 'no-policy-found';
  mode?: 'none' | 'testing' | 'enforce';
  successful: number;
  failed: number;
  failures?: BuiltFailure[];
}): string {
  const end = new Date(Date.parse(options.start) + 86_399_000).toISOString();
  const type = options.policyType ?? 'sts';
  const policyString =
    type === 'sts'
      ? ['version: STSv1', `mode: ${options.mode ?? 'enforce'}`, `mx: mx.${options.domain}`, 'max_age: 86400']
      : [];
  return JSON.stringify({
    'organization-name': 'TLS Receiver',
    'date-range': { 'start-datetime': options.start, 'end-datetime': end },
    'contact-info': 'tls-reports@receiver.example',
    'report-id': options.reportId,
    policies: [
      {
        policy: { 'policy-type': type, 'policy-string': policyString, 'policy-domain': options.domain },
        summary: {
          'total-successful-session-count': options.successful,
          'total-failure-session-count': options.failed,
        },
        'failure-details': options.failures ?? [],
      },
    ],
  });
}
