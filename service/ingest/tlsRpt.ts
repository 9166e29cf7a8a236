import { isIP } from 'node:net';
import { z } from 'zod';
import { ReportParseError } from './reportParseError.ts';
import type { TlsFailureDetail, TlsReport, TlsReportPolicy } from './tlsRptReport.ts';

// Objects are loose: receivers add fields of their own, and RFC 8460 reports are extensible.
const text = z.string().trim().min(1, 'must not be empty');
const sessionCount = z.number().int().nonnegative();
const ipAddress = z.string().refine((value) => isIP(value) !== 0, 'is not an IPv4 or IPv6 address');
const dateTime = z.iso.datetime({ offset: true });

const failureDetailSchema = z.looseObject({
  'result-type': text,
  'sending-mta-ip': ipAddress.optional(),
  'receiving-mx-hostname': z.string().optional(),
  'receiving-mx-helo': z.string().optional(),
  'receiving-ip': ipAddress.optional(),
  'failed-session-count': sessionCount,
  'additional-information': z.string().optional(),
  'additional-info-uri': z.string().optional(),
  // A string in the RFC; a few receivers send a number.
  'failure-reason-code': z.union([z.string(), z.number()]).optional(),
});

const policySchema = z.looseObject({
  policy: z.looseObject({
    'policy-type': z
      .string()
      .toLowerCase()
      .pipe(z.enum(['sts', 'tlsa', 'no-policy-found'])),
    'policy-string': z.array(z.string()).optional(),
    'policy-domain': text,
    'mx-host': z.union([z.string(), z.array(z.string())]).optional(),
    'mx-host-pattern': z.array(z.string()).optional(),
  }),
  summary: z.looseObject({
    'total-successful-session-count': sessionCount,
    'total-failure-session-count': sessionCount,
  }),
  'failure-details': z.array(failureDetailSchema).optional(),
});

const reportSchema = z.looseObject({
  'organization-name': text,
  'date-range': z.looseObject({ 'start-datetime': dateTime, 'end-datetime': dateTime }),
  'contact-info': z.string().optional(),
  'report-id': text,
  policies: z.array(policySchema).min(1, 'must list at least one policy'),
});

/** Parses the JSON text of an SMTP TLS report (RFC 8460) into the normalized snake_case shape. */
export function parseTlsRptJson(json: string): TlsReport {
  let data: unknown;
  try {
    data = JSON.parse(json.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ReportParseError('malformed', `TLS report is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // reportInput puts the offending value on each issue, which tells "missing" from "wrong".
  const parsed = reportSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) throw schemaError(parsed.error);
  const report = parsed.data;

  const start = new Date(report['date-range']['start-datetime']);
  const end = new Date(report['date-range']['end-datetime']);
  if (start > end) {
    throw new ReportParseError(
      'invalid_value',
      'TLS report date-range: start-datetime is after end-datetime',
    );
  }

  const policies = report.policies.map(normalizePolicy);
  let successful_sessions = 0;
  let failed_sessions = 0;
  for (const { summary } of policies) {
    successful_sessions += summary.total_successful_session_count;
    failed_sessions += summary.total_failure_session_count;
  }
  if (!Number.isSafeInteger(successful_sessions) || !Number.isSafeInteger(failed_sessions)) {
    throw new ReportParseError(
      'invalid_value',
      'TLS report session counts add up beyond what can be counted exactly',
    );
  }

  return {
    organization_name: report['organization-name'],
    date_range: { start_datetime: start.toISOString(), end_datetime: end.toISOString() },
    ...(report['contact-info'] !== undefined && { contact_info: report['contact-info'] }),
    report_id: report['report-id'],
    policies,
    totals: { successful_sessions, failed_sessions },
  };
}

function normalizePolicy(entry: z.infer<typeof policySchema>): TlsReportPolicy {
  const policy = entry.policy;
  const mxHost = policy['mx-host'];
  const mx_host = [
    ...(typeof mxHost === 'string' ? [mxHost] : (mxHost ?? [])),
    ...(policy['mx-host-pattern'] ?? []),
  ];
  return {
    policy: {
      policy_type: policy['policy-type'],
      policy_string: policy['policy-string'] ?? [],
      policy_domain: policy['policy-domain'],
      ...(mx_host.length > 0 && { mx_host }),
    },
    summary: {
      total_successful_session_count: entry.summary['total-successful-session-count'],
      total_failure_session_count: entry.summary['total-failure-session-count'],
    },
    failure_details: (entry['failure-details'] ?? []).map(normalizeFailureDetail),
  };
}

function normalizeFailureDetail(detail: z.infer<typeof failureDetailSchema>): TlsFailureDetail {
  const additional = detail['additional-information'] ?? detail['additional-info-uri'];
  const reasonCode = detail['failure-reason-code'];
  const optionalFields: Partial<TlsFailureDetail> = {
    sending_mta_ip: detail['sending-mta-ip'],
    receiving_mx_hostname: detail['receiving-mx-hostname'],
    receiving_mx_helo: detail['receiving-mx-helo'],
    receiving_ip: detail['receiving-ip'],
    additional_information: additional,
    failure_reason_code: reasonCode === undefined ? undefined : String(reasonCode),
  };
  return {
    result_type: detail['result-type'],
    failed_session_count: detail['failed-session-count'],
    // Absent fields stay absent rather than becoming `undefined` keys.
    ...Object.fromEntries(Object.entries(optionalFields).filter(([, value]) => value !== undefined)),
  };
}

function schemaError(error: z.ZodError): ReportParseError {
  const details = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('');
    return `${path.replace(/^\./, '') || '(root)'}: ${issue.message}`;
  });
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '';
  const missing = error.issues.some((issue) => issue.code === 'invalid_type' && issue.input === undefined);
  return new ReportParseError(
    missing ? 'missing_field' : 'invalid_value',
    `TLS report is invalid: ${details.join('; ')}${more}`,
    { cause: error },
  );
}
