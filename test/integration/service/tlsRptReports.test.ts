// The TLS report reads over real HTTP, on the two real fixtures (RFC 8460's example and a real receiver's
// report) and on built reports for the filters: list with policy_domain / policy_mode / date filters and pages,
// one report by database id or report-id, sessions by sending IP, failures by result type, totals with the
// failure rate and reasons, and the failure-detail rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAccount,
  createDomain,
  ingest,
  readFixture,
  startReportsWorld,
  tlsReportJson,
  type ReportsWorld,
} from './reportsSupport.ts';
import { stopService } from '../../support/serviceHarness.ts';

let world: ReportsWorld;
let companyY: number;
let exampleCom: number;
let cases: number;
let rfcId: number;
let realId: number;
let caseA: number;
let caseB: number;
let otherTeamDomain: number;

const RFC_UUID = '5065427c-23d3-47ca-b6e0-946ea0e8c4be';
const REAL_REPORT_ID = '2024-01-09T00:00:00Z_example.com';
const RECEIVED_AT = '2026-06-15T12:00:00.000Z';

beforeAll(async () => {
  world = await startReportsWorld();
  companyY = await createDomain(world.svc, world.token, 'company-y.example');
  exampleCom = await createDomain(world.svc, world.token, 'example.com');
  cases = await createDomain(world.svc, world.token, 'tls-cases.example');
  rfcId = (await ingest(world.svc, 'tls', readFixture('tls-rpt', 'rfc8460.json'))).id;
  realId = (await ingest(world.svc, 'tls', readFixture('tls-rpt', 'smtp_tls.json'))).id;
  caseA = (
    await ingest(
      world.svc,
      'tls',
      tlsReportJson({
        domain: 'tls-cases.example',
        reportId: 'case-a',
        start: '2026-06-01T00:00:00Z',
        mode: 'enforce',
        successful: 100,
        failed: 10,
        failures: [
          {
            'result-type': 'starttls-not-supported',
            'sending-mta-ip': '192.0.2.70',
            'failed-session-count': 6,
          },
          {
            'result-type': 'certificate-expired',
            'sending-mta-ip': '192.0.2.71',
            'failed-session-count': 4,
            'failure-reason-code': 'X509_V_ERR_CERT_HAS_EXPIRED',
          },
          // No failures and no reason: not a failure row.
          { 'result-type': 'validation-failure', 'sending-mta-ip': '192.0.2.72', 'failed-session-count': 0 },
          // No failures but a reason code: kept as a failure row.
          {
            'result-type': 'sts-policy-invalid',
            'failed-session-count': 0,
            'failure-reason-code': 'BAD_POLICY',
          },
        ],
      }),
    )
  ).id;
  caseB = (
    await ingest(
      world.svc,
      'tls',
      tlsReportJson({
        domain: 'tls-cases.example',
        reportId: 'case-b',
        start: '2026-06-08T00:00:00Z',
        policyType: 'tlsa',
        successful: 50,
        failed: 5,
        failures: [
          {
            'result-type': 'starttls-not-supported',
            'sending-mta-ip': '192.0.2.70',
            'failed-session-count': 5,
          },
        ],
      }),
    )
  ).id;
  const other = await addAccount(world.svc, 'Other TLS Co');
  const { token } = await world.svc.createToken(['domains:read', 'domains:write'], {
    userId: other.ownerUserId,
  });
  otherTeamDomain = await createDomain(world.svc, token, 'other-tls.example');
});

afterAll(() => stopService(world.svc));

const get = (path: string, query: Record<string, string | number> = {}) =>
  world.svc.call('GET', path, { token: world.token, query });

const RFC_SUMMARY = {
  report_id: RFC_UUID,
  organization_name: 'Company-X',
  contact_info: 'sts-reporting@company-x.example',
  date_range_start: '2016-04-01T00:00:00.000Z',
  date_range_end: '2016-04-01T23:59:59.000Z',
  policy_domain: 'company-y.example',
  policy_type: 'sts',
  policy_mode: 'testing',
  total_successful_session_count: 5326,
  total_failure_session_count: 303,
  received_at: RECEIVED_AT,
};

const RFC_DETAILS = [
  {
    result_type: 'certificate-expired',
    sending_mta_ip: '2001:db8:abcd:0012::1',
    receiving_mx_hostname: 'mx1.mail.company-y.example',
    receiving_mx_helo: null,
    receiving_ip: null,
    failed_session_count: 100,
    additional_information: null,
    failure_reason_code: null,
  },
  {
    result_type: 'starttls-not-supported',
    sending_mta_ip: '2001:db8:abcd:0013::1',
    receiving_mx_hostname: 'mx2.mail.company-y.example',
    receiving_mx_helo: null,
    receiving_ip: '203.0.113.56',
    failed_session_count: 200,
    additional_information:
      'https://reports.company-x.example/report_info?id=5065427c-23d3#StarttlsNotSupported',
    failure_reason_code: null,
  },
  {
    result_type: 'validation-failure',
    sending_mta_ip: '198.51.100.62',
    receiving_mx_hostname: 'mx-backup.mail.company-y.example',
    receiving_mx_helo: null,
    receiving_ip: '203.0.113.58',
    failed_session_count: 3,
    additional_information: null,
    failure_reason_code: 'X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED',
  },
];

describe('GET /domains/{id}/tls-rpt/reports', () => {
  it('lists the RFC 8460 example report as received', async () => {
    const res = await get(`/domains/${companyY}/tls-rpt/reports`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [{ id: rfcId, ...RFC_SUMMARY }],
      pagination: { page: 1, limit: 25, total: 1, has_more: false },
    });
  });

  it('lists the real report of example.com', async () => {
    const res = await get(`/domains/${exampleCom}/tls-rpt/reports`);
    expect(res.body.data).toEqual([
      {
        id: realId,
        report_id: REAL_REPORT_ID,
        organization_name: 'Example Inc.',
        contact_info: 'smtp-tls-reporting@example.com',
        date_range_start: '2024-01-09T00:00:00.000Z',
        date_range_end: '2024-01-09T23:59:59.000Z',
        policy_domain: 'example.com',
        policy_type: 'sts',
        policy_mode: 'testing',
        total_successful_session_count: 0,
        total_failure_session_count: 3,
        received_at: RECEIVED_AT,
      },
    ]);
  });

  it('lists newest first and pages', async () => {
    const ids = (await get(`/domains/${cases}/tls-rpt/reports`)).body.data.map((r: { id: number }) => r.id);
    expect(ids).toEqual([caseB, caseA]);
    const second = await get(`/domains/${cases}/tls-rpt/reports`, { page: 2, limit: 1 });
    expect(second.body.data.map((r: { id: number }) => r.id)).toEqual([caseA]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 1, total: 2, has_more: false });
    const first = await get(`/domains/${cases}/tls-rpt/reports`, { page: 1, limit: 1 });
    expect(first.body.pagination.has_more).toBe(true);
  });

  it('filters by policy mode (a tlsa policy has none), policy domain and dates', async () => {
    const ids = async (query: Record<string, string>) =>
      (await get(`/domains/${cases}/tls-rpt/reports`, query)).body.data.map((r: { id: number }) => r.id);
    expect(await ids({ policy_mode: 'enforce' })).toEqual([caseA]);
    expect(await ids({ policy_mode: 'testing' })).toEqual([]);
    expect(await ids({ policy_domain: 'TLS-Cases.Example' })).toEqual([caseB, caseA]);
    expect(await ids({ policy_domain: 'elsewhere.example' })).toEqual([]);
    expect(await ids({ start_date: '2026-06-05' })).toEqual([caseB]);
    expect(await ids({ end_date: '2026-06-07' })).toEqual([caseA]);
    expect(await ids({ start_date: '2026-06-08', end_date: '2026-06-08' })).toEqual([caseB]);
    const b = (await get(`/domains/${cases}/tls-rpt/reports`, { start_date: '2026-06-05' })).body.data[0];
    expect(b).toMatchObject({ policy_type: 'tlsa', policy_mode: null });
  });

  it('refuses an unknown policy_mode and a reversed window (422)', async () => {
    expect((await get(`/domains/${cases}/tls-rpt/reports`, { policy_mode: 'strict' })).status).toBe(422);
    const reversed = await get(`/domains/${cases}/tls-rpt/reports`, {
      start_date: '2026-06-09',
      end_date: '2026-06-01',
    });
    expect(reversed.status).toBe(422);
  });
});

describe('GET /domains/{id}/tls-rpt/reports/{report_id}', () => {
  const rfcDetail = () => ({
    id: rfcId,
    ...RFC_SUMMARY,
    policies: [
      {
        policy_type: 'sts',
        policy_domain: 'company-y.example',
        policy_string: ['version: STSv1', 'mode: testing', 'mx: *.mail.company-y.example', 'max_age: 86400'],
        mx_host: ['*.mail.company-y.example'],
        total_successful_session_count: 5326,
        total_failure_session_count: 303,
        failure_details: RFC_DETAILS,
      },
    ],
  });

  it('finds the RFC example by database id and by its report UUID, with policies and failure details', async () => {
    const byId = await get(`/domains/${companyY}/tls-rpt/reports/${rfcId}`);
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual(rfcDetail());
    const byUuid = await get(`/domains/${companyY}/tls-rpt/reports/${RFC_UUID}`);
    expect(byUuid.body.data).toEqual(rfcDetail());
  });

  it('finds the real report by its report-id (not a UUID)', async () => {
    const res = await get(`/domains/${exampleCom}/tls-rpt/reports/${encodeURIComponent(REAL_REPORT_ID)}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(realId);
    expect(
      res.body.data.policies[0].failure_details.map((d: { sending_mta_ip: string }) => d.sending_mta_ip),
    ).toEqual(['209.85.222.201', '209.85.208.176']);
    expect(res.body.data.policies[0].mx_host).toEqual([]);
  });

  it("answers 404 for another domain's report, an unknown id, and another team's domain", async () => {
    expect((await get(`/domains/${exampleCom}/tls-rpt/reports/${rfcId}`)).status).toBe(404);
    expect((await get(`/domains/${exampleCom}/tls-rpt/reports/${RFC_UUID}`)).status).toBe(404);
    const unknown = await get(`/domains/${companyY}/tls-rpt/reports/999999`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect((await get(`/domains/${otherTeamDomain}/tls-rpt/reports/${rfcId}`)).status).toBe(404);
  });
});

describe('GET /domains/{id}/tls-rpt/by-source', () => {
  it('groups the RFC example by sending MTA IP, most failures first (successes per IP are unknown)', async () => {
    const res = await get(`/domains/${companyY}/tls-rpt/by-source`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      domain_id: companyY,
      sources: [
        {
          sending_mta_ip: '2001:db8:abcd:0013::1',
          successful_session_count: null,
          failed_session_count: 200,
          result_types: ['starttls-not-supported'],
          report_count: 1,
        },
        {
          sending_mta_ip: '2001:db8:abcd:0012::1',
          successful_session_count: null,
          failed_session_count: 100,
          result_types: ['certificate-expired'],
          report_count: 1,
        },
        {
          sending_mta_ip: '198.51.100.62',
          successful_session_count: null,
          failed_session_count: 3,
          result_types: ['validation-failure'],
          report_count: 1,
        },
      ],
    });
  });

  it('groups the real report by its two Google MTAs', async () => {
    const res = await get(`/domains/${exampleCom}/tls-rpt/by-source`);
    expect(
      res.body.data.sources.map((s: { sending_mta_ip: string; failed_session_count: number }) => [
        s.sending_mta_ip,
        s.failed_session_count,
      ]),
    ).toEqual([
      ['209.85.222.201', 2],
      ['209.85.208.176', 1],
    ]);
  });

  it('sums an IP over reports, leaves out IPs without failures, and applies the filters', async () => {
    const all = await get(`/domains/${cases}/tls-rpt/by-source`);
    expect(all.body.data.sources).toEqual([
      {
        sending_mta_ip: '192.0.2.70',
        successful_session_count: null,
        failed_session_count: 11,
        result_types: ['starttls-not-supported'],
        report_count: 2,
      },
      {
        sending_mta_ip: '192.0.2.71',
        successful_session_count: null,
        failed_session_count: 4,
        result_types: ['certificate-expired'],
        report_count: 1,
      },
    ]);
    const enforce = await get(`/domains/${cases}/tls-rpt/by-source`, { policy_mode: 'enforce' });
    expect(enforce.body.data.sources[0]).toMatchObject({
      sending_mta_ip: '192.0.2.70',
      failed_session_count: 6,
    });
  });
});

describe('GET /domains/{id}/tls-rpt/by-result', () => {
  it('groups the RFC example’s failed sessions by result type', async () => {
    const res = await get(`/domains/${companyY}/tls-rpt/by-result`);
    expect(res.body.data).toEqual({
      domain_id: companyY,
      results: [
        { result_type: 'starttls-not-supported', failed_session_count: 200, report_count: 1 },
        { result_type: 'certificate-expired', failed_session_count: 100, report_count: 1 },
        { result_type: 'validation-failure', failed_session_count: 3, report_count: 1 },
      ],
    });
  });

  it('has the real report’s three validation failures in one group', async () => {
    const res = await get(`/domains/${exampleCom}/tls-rpt/by-result`);
    expect(res.body.data.results).toEqual([
      { result_type: 'validation-failure', failed_session_count: 3, report_count: 1 },
    ]);
  });

  it('honours the date filter', async () => {
    const res = await get(`/domains/${cases}/tls-rpt/by-result`, { start_date: '2026-06-05' });
    expect(res.body.data.results).toEqual([
      { result_type: 'starttls-not-supported', failed_session_count: 5, report_count: 1 },
    ]);
  });
});

describe('GET /domains/{id}/tls-rpt/failures', () => {
  it('totals the RFC example: 5326 successful, 303 failed (5.4 %), by reason code', async () => {
    const res = await get(`/domains/${companyY}/tls-rpt/failures`);
    expect(res.body.data).toEqual({
      domain_id: companyY,
      total_successful_session_count: 5326,
      total_failure_session_count: 303,
      failure_rate: 5.4,
      by_reason: [
        { failure_reason_code: null, result_type: 'starttls-not-supported', failed_session_count: 200 },
        { failure_reason_code: null, result_type: 'certificate-expired', failed_session_count: 100 },
        {
          failure_reason_code: 'X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED',
          result_type: 'validation-failure',
          failed_session_count: 3,
        },
      ],
    });
  });

  it('gives the real report a 100 % failure rate (no successful session)', async () => {
    const res = await get(`/domains/${exampleCom}/tls-rpt/failures`);
    expect(res.body.data).toMatchObject({
      total_successful_session_count: 0,
      total_failure_session_count: 3,
      failure_rate: 100,
    });
  });

  it('sums the filtered policies and keeps reason codes reported without failures', async () => {
    const all = await get(`/domains/${cases}/tls-rpt/failures`);
    expect(all.body.data).toMatchObject({
      total_successful_session_count: 150,
      total_failure_session_count: 15,
      failure_rate: 9.1,
    });
    expect(all.body.data.by_reason).toEqual([
      { failure_reason_code: null, result_type: 'starttls-not-supported', failed_session_count: 11 },
      {
        failure_reason_code: 'X509_V_ERR_CERT_HAS_EXPIRED',
        result_type: 'certificate-expired',
        failed_session_count: 4,
      },
      { failure_reason_code: 'BAD_POLICY', result_type: 'sts-policy-invalid', failed_session_count: 0 },
    ]);
    const none = await get(`/domains/${cases}/tls-rpt/failures`, { policy_domain: 'elsewhere.example' });
    expect(none.body.data).toEqual({
      domain_id: cases,
      total_successful_session_count: 0,
      total_failure_session_count: 0,
      failure_rate: 0,
      by_reason: [],
    });
  });
});

describe('GET /domains/{id}/tls-rpt/failure-details', () => {
  it('lists the RFC example’s failure details with their report', async () => {
    const res = await get(`/domains/${companyY}/tls-rpt/failure-details`);
    const context = {
      tls_report_id: rfcId,
      report_id: RFC_UUID,
      organization_name: 'Company-X',
      policy_domain: 'company-y.example',
      date_range_start: '2016-04-01T00:00:00.000Z',
      date_range_end: '2016-04-01T23:59:59.000Z',
    };
    expect(res.body).toEqual({
      data: RFC_DETAILS.map((d) => ({ ...d, ...context })),
      pagination: { page: 1, limit: 25, total: 3, has_more: false },
    });
  });

  it('keeps rows with failures or a reason code, newest report first, in pages', async () => {
    const res = await get(`/domains/${cases}/tls-rpt/failure-details`);
    expect(
      res.body.data.map((d: { tls_report_id: number; result_type: string; failed_session_count: number }) => [
        d.tls_report_id,
        d.result_type,
        d.failed_session_count,
      ]),
    ).toEqual([
      [caseB, 'starttls-not-supported', 5],
      [caseA, 'starttls-not-supported', 6],
      [caseA, 'certificate-expired', 4],
      [caseA, 'sts-policy-invalid', 0],
    ]);
    const page = await get(`/domains/${cases}/tls-rpt/failure-details`, { page: 2, limit: 3 });
    expect(page.body.data).toHaveLength(1);
    expect(page.body.pagination).toEqual({ page: 2, limit: 3, total: 4, has_more: false });
    const tlsa = await get(`/domains/${cases}/tls-rpt/failure-details`, { policy_mode: 'enforce' });
    expect(tlsa.body.pagination.total).toBe(3);
  });

  it("answers 404 for another team's domain on every read", async () => {
    for (const path of ['reports', 'by-source', 'by-result', 'failures', 'failure-details']) {
      const res = await get(`/domains/${otherTeamDomain}/tls-rpt/${path}`);
      expect(res.status, path).toBe(404);
    }
  });
});
