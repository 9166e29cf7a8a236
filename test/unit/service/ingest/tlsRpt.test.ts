// Both TLS-RPT fixtures with what the JSON says written out by hand, then the refusals.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseTlsReport, type TlsReport } from '../../../../service/ingest/index.ts';
import { catchReportParseError } from './catchReportParseError.ts';
import { listFixtures, readFixture } from './fixtureFiles.ts';

const EXPECTED: Record<string, TlsReport> = {
  'rfc8460.json': {
    organization_name: 'Company-X',
    date_range: { start_datetime: '2016-04-01T00:00:00.000Z', end_datetime: '2016-04-01T23:59:59.000Z' },
    contact_info: 'sts-reporting@company-x.example',
    report_id: '5065427c-23d3-47ca-b6e0-946ea0e8c4be',
    policies: [
      {
        policy: {
          policy_type: 'sts',
          policy_string: [
            'version: STSv1',
            'mode: testing',
            'mx: *.mail.company-y.example',
            'max_age: 86400',
          ],
          policy_domain: 'company-y.example',
          mx_host: ['*.mail.company-y.example'],
        },
        summary: { total_successful_session_count: 5326, total_failure_session_count: 303 },
        failure_details: [
          {
            result_type: 'certificate-expired',
            sending_mta_ip: '2001:db8:abcd:0012::1',
            receiving_mx_hostname: 'mx1.mail.company-y.example',
            failed_session_count: 100,
          },
          {
            result_type: 'starttls-not-supported',
            sending_mta_ip: '2001:db8:abcd:0013::1',
            receiving_mx_hostname: 'mx2.mail.company-y.example',
            receiving_ip: '203.0.113.56',
            failed_session_count: 200,
            additional_information:
              'https://reports.company-x.example/report_info?id=5065427c-23d3#StarttlsNotSupported',
          },
          {
            result_type: 'validation-failure',
            sending_mta_ip: '198.51.100.62',
            receiving_ip: '203.0.113.58',
            receiving_mx_hostname: 'mx-backup.mail.company-y.example',
            failed_session_count: 3,
            failure_reason_code: 'X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED',
          },
        ],
      },
    ],
    totals: { successful_sessions: 5326, failed_sessions: 303 },
  },
  'smtp_tls.json': {
    organization_name: 'Example Inc.',
    date_range: { start_datetime: '2024-01-09T00:00:00.000Z', end_datetime: '2024-01-09T23:59:59.000Z' },
    contact_info: 'smtp-tls-reporting@example.com',
    report_id: '2024-01-09T00:00:00Z_example.com',
    policies: [
      {
        policy: {
          policy_type: 'sts',
          policy_string: ['version: STSv1', 'mode: testing', 'mx: example.com', 'max_age: 86400'],
          policy_domain: 'example.com',
        },
        summary: { total_successful_session_count: 0, total_failure_session_count: 3 },
        failure_details: [
          {
            result_type: 'validation-failure',
            sending_mta_ip: '209.85.222.201',
            receiving_ip: '173.212.201.41',
            receiving_mx_hostname: 'example.com',
            failed_session_count: 2,
          },
          {
            result_type: 'validation-failure',
            sending_mta_ip: '209.85.208.176',
            receiving_ip: '173.212.201.41',
            receiving_mx_hostname: 'example.com',
            failed_session_count: 1,
          },
        ],
      },
    ],
    totals: { successful_sessions: 0, failed_sessions: 3 },
  },
};

const bytes = (text: string) => new TextEncoder().encode(text);

/** A minimal valid report object to break one field at a time. */
function minimal(): Record<string, unknown> {
  return {
    'organization-name': 'Receiver',
    'date-range': { 'start-datetime': '2024-05-01T00:00:00Z', 'end-datetime': '2024-05-01T23:59:59Z' },
    'contact-info': 'tls@receiver.example',
    'report-id': 'id-1',
    policies: [
      {
        policy: { 'policy-type': 'no-policy-found', 'policy-domain': 'example.com' },
        summary: { 'total-successful-session-count': 10, 'total-failure-session-count': 0 },
      },
    ],
  };
}
const json = (value: unknown) => bytes(JSON.stringify(value));

describe('TLS-RPT fixtures', () => {
  it('has an expectation for every file in the fixture folder', () => {
    expect(listFixtures('tls-rpt')).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s yields exactly what the file says', (name, expected) => {
    expect(parseTlsReport(readFixture('tls-rpt', name))).toStrictEqual(expected);
  });

  it.each(Object.keys(EXPECTED))('%s gzipped (application/tlsrpt+gzip) gives the same report', (name) => {
    const raw = readFixture('tls-rpt', name);
    expect(parseTlsReport(gzipSync(raw))).toStrictEqual(parseTlsReport(raw));
  });
});

describe('TLS-RPT tolerance', () => {
  it('keeps going past fields it does not know and fills optional ones sensibly', () => {
    const report = { ...minimal(), 'x-vendor': { anything: true } };
    const parsed = parseTlsReport(json(report));
    expect(parsed.policies[0]).toStrictEqual({
      policy: { policy_type: 'no-policy-found', policy_string: [], policy_domain: 'example.com' },
      summary: { total_successful_session_count: 10, total_failure_session_count: 0 },
      failure_details: [],
    });
    expect(parsed.totals).toEqual({ successful_sessions: 10, failed_sessions: 0 });
  });

  it('accepts mx-host as a list and the additional-info-uri spelling', () => {
    const report = minimal();
    report.policies = [
      {
        policy: {
          'policy-type': 'STS',
          'policy-domain': 'example.com',
          'mx-host': ['mx1.example.com', 'mx2.example.com'],
        },
        summary: { 'total-successful-session-count': 1, 'total-failure-session-count': 4 },
        'failure-details': [
          {
            'result-type': 'sts-policy-fetch-error',
            'failed-session-count': 4,
            'additional-info-uri': 'https://receiver.example/why',
            'failure-reason-code': 404,
          },
        ],
      },
    ];
    const [policy] = parseTlsReport(json(report)).policies;
    expect(policy?.policy.policy_type).toBe('sts');
    expect(policy?.policy.mx_host).toEqual(['mx1.example.com', 'mx2.example.com']);
    expect(policy?.failure_details).toStrictEqual([
      {
        result_type: 'sts-policy-fetch-error',
        failed_session_count: 4,
        additional_information: 'https://receiver.example/why',
        failure_reason_code: '404',
      },
    ]);
  });

  it('sums sessions over several policies', () => {
    const report = minimal();
    const policy = (ok: number, failed: number) => ({
      policy: { 'policy-type': 'tlsa', 'policy-domain': 'example.com' },
      summary: { 'total-successful-session-count': ok, 'total-failure-session-count': failed },
    });
    report.policies = [policy(5, 1), policy(7, 2)];
    expect(parseTlsReport(json(report)).totals).toEqual({ successful_sessions: 12, failed_sessions: 3 });
  });
});

describe('TLS-RPT refusals name what is wrong', () => {
  const without = (key: string) => {
    const report = minimal();
    delete report[key];
    return json(report);
  };
  const withPolicy = (change: (policy: Record<string, unknown>) => void) => {
    const report = minimal();
    const [policy] = report.policies as Record<string, unknown>[];
    change(policy!);
    return json(report);
  };
  const cases: [string, Uint8Array, string, RegExp][] = [
    ['no organization-name', without('organization-name'), 'missing_field', /organization-name/],
    ['no report-id', without('report-id'), 'missing_field', /report-id/],
    ['no policies', without('policies'), 'missing_field', /policies/],
    ['an empty policy list', json({ ...minimal(), policies: [] }), 'invalid_value', /at least one policy/],
    [
      'a date that is not RFC 3339',
      json({
        ...minimal(),
        'date-range': { 'start-datetime': 'yesterday', 'end-datetime': '2024-05-01T00:00:00Z' },
      }),
      'invalid_value',
      /date-range\.start-datetime/,
    ],
    [
      'start after end',
      json({
        ...minimal(),
        'date-range': { 'start-datetime': '2024-05-02T00:00:00Z', 'end-datetime': '2024-05-01T00:00:00Z' },
      }),
      'invalid_value',
      /start-datetime is after end-datetime/,
    ],
    [
      'an unknown policy type',
      withPolicy((p) => ((p.policy as Record<string, unknown>)['policy-type'] = 'dane')),
      'invalid_value',
      /policies\[0\]\.policy\.policy-type/,
    ],
    [
      'a negative session count',
      withPolicy((p) => ((p.summary as Record<string, unknown>)['total-failure-session-count'] = -1)),
      'invalid_value',
      /total-failure-session-count/,
    ],
    [
      'a sending-mta-ip that is not an address',
      withPolicy((p) => {
        p['failure-details'] = [
          { 'result-type': 'x', 'sending-mta-ip': 'mx.example', 'failed-session-count': 1 },
        ];
      }),
      'invalid_value',
      /failure-details\[0\]\.sending-mta-ip: is not an IPv4 or IPv6 address/,
    ],
    ['not JSON', bytes('<html>502 Bad Gateway</html>'), 'malformed', /not valid JSON/],
    ['JSON that is not an object', bytes('[1,2,3]'), 'invalid_value', /TLS report is invalid/],
    ['bytes that are not UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 'malformed', /not UTF-8/],
  ];

  it.each(cases)('%s', (_label, input, kind, message) => {
    const error = catchReportParseError(() => parseTlsReport(input));
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
  });
});
