/**
 * Reads of the stored TLS reports of a domain (the TLS-RPT report operations). Filters: policy_domain and
 * policy_mode select policies (a report is listed when one of its policies matches; aggregates count only the
 * matching policies), the optional date window selects reports by the day their date range starts.
 * Per-IP and per-result figures come from failure details (groups without failed sessions are left out):
 * RFC 8460 counts successful sessions per policy only, so a sending IP's successful_session_count is unknown
 * (null). Failure reasons and failure-detail rows keep entries with a reason code even at zero sessions.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import type { MtaStsMode } from '../../shared/email-auth/mtaStsPolicy.ts';
import { normalizeDomain } from '../../shared/email-auth/protocols.ts';
import { percentOneDecimal } from './percent.ts';

/** Which reports and policies a read covers. */
export interface TlsReportFilter {
  domainId: number;
  policyDomain?: string;
  policyMode?: MtaStsMode;
  /** Inclusive lower / exclusive upper bound on date_range_start (ISO); null = open. */
  fromTimestamp: string | null;
  toTimestamp: string | null;
}

interface FilterArgs {
  domainId: number;
  policyDomain: string | null;
  policyMode: string | null;
  from: string | null;
  to: string | null;
  [key: string]: unknown;
}

function args(filter: TlsReportFilter): FilterArgs {
  return {
    domainId: filter.domainId,
    policyDomain: filter.policyDomain === undefined ? null : normalizeDomain(filter.policyDomain),
    policyMode: filter.policyMode ?? null,
    from: filter.fromTimestamp,
    to: filter.toTimestamp,
  };
}

const REPORT_CONDITION = `r.domain_id = @domainId
  AND (@from IS NULL OR r.date_range_start >= @from) AND (@to IS NULL OR r.date_range_start < @to)`;
const POLICY_CONDITION = `(@policyDomain IS NULL OR p.policy_domain = @policyDomain)
  AND (@policyMode IS NULL OR p.policy_mode = @policyMode)`;
const DETAILS_FROM = `tls_failure_details f
  JOIN tls_report_policies p ON p.id = f.policy_id
  JOIN tls_reports r ON r.id = p.tls_report_id
  WHERE ${REPORT_CONDITION} AND ${POLICY_CONDITION}`;

/** A tls_reports row. */
interface ReportRow {
  id: number;
  report_id: string;
  organization_name: string;
  contact_info: string | null;
  date_range_start: string;
  date_range_end: string;
  policy_domain: string;
  policy_type: string;
  policy_mode: MtaStsMode | null;
  total_successful_session_count: number;
  total_failure_session_count: number;
  received_at: string;
}

/** Schema TlsReport. */
export type TlsReportSummary = ReportRow;

interface PolicyRow {
  id: number;
  policy_type: string;
  policy_domain: string;
  policy_string: string;
  mx_host: string;
  total_successful_session_count: number;
  total_failure_session_count: number;
}

interface DetailRow {
  result_type: string;
  sending_mta_ip: string | null;
  receiving_mx_hostname: string | null;
  receiving_mx_helo: string | null;
  receiving_ip: string | null;
  failed_session_count: number;
  additional_information: string | null;
  failure_reason_code: string | null;
}

const DETAIL_COLUMNS = `f.result_type, f.sending_mta_ip, f.receiving_mx_hostname, f.receiving_mx_helo, f.receiving_ip,
  f.failed_session_count, f.additional_information, f.failure_reason_code`;

const REPORT_COLUMNS = `r.id, r.report_id, r.organization_name, r.contact_info, r.date_range_start, r.date_range_end,
  r.policy_domain, r.policy_type, r.policy_mode, r.total_successful_session_count, r.total_failure_session_count,
  r.received_at`;

/** One page of the reports matching the filter, newest first, and the total count. */
export function listTlsReports(
  db: ServiceDb,
  filter: TlsReportFilter,
  page: { limit: number; offset: number },
): { total: number; rows: TlsReportSummary[] } {
  const where = `FROM tls_reports r WHERE ${REPORT_CONDITION}
    AND EXISTS (SELECT 1 FROM tls_report_policies p WHERE p.tls_report_id = r.id AND ${POLICY_CONDITION})`;
  const a = args(filter);
  const total = db.prepare<FilterArgs, { n: number }>(`SELECT count(*) AS n ${where}`).get(a)!.n;
  const rows = db
    .prepare<FilterArgs, ReportRow>(
      `SELECT ${REPORT_COLUMNS} ${where} ORDER BY r.date_range_start DESC, r.id DESC LIMIT @limit OFFSET @offset`,
    )
    .all({ ...a, limit: page.limit, offset: page.offset });
  return { total, rows };
}

/** Schema TlsReportDetail. */
export type TlsReportDetailView = TlsReportSummary & {
  policies: {
    policy_type: string;
    policy_domain: string;
    policy_string: string[];
    mx_host: string[];
    total_successful_session_count: number;
    total_failure_session_count: number;
    failure_details: DetailRow[];
  }[];
};

/**
 * One report of the domain by database id or by its report-id (a UUID, usually); digits are tried as a database
 * id first. Null when the domain has no such report.
 */
export function findTlsReportDetail(
  db: ServiceDb,
  domainId: number,
  key: string,
): TlsReportDetailView | null {
  const byId = /^\d{1,15}$/.test(key)
    ? db
        .prepare<[number, number], ReportRow>(
          `SELECT ${REPORT_COLUMNS} FROM tls_reports r WHERE r.id = ? AND r.domain_id = ?`,
        )
        .get(Number(key), domainId)
    : undefined;
  const row =
    byId ??
    db
      .prepare<[string, number], ReportRow>(
        `SELECT ${REPORT_COLUMNS} FROM tls_reports r WHERE r.report_id = ? AND r.domain_id = ?
          ORDER BY r.date_range_start DESC, r.id DESC LIMIT 1`,
      )
      .get(key, domainId);
  if (!row) return null;
  const policies = db
    .prepare<[number], PolicyRow>(
      `SELECT id, policy_type, policy_domain, policy_string, mx_host, total_successful_session_count,
              total_failure_session_count
         FROM tls_report_policies WHERE tls_report_id = ? ORDER BY position`,
    )
    .all(row.id);
  const details = db.prepare<[number], DetailRow>(
    `SELECT ${DETAIL_COLUMNS} FROM tls_failure_details f WHERE f.policy_id = ? ORDER BY f.position`,
  );
  return {
    ...row,
    policies: policies.map((p) => ({
      policy_type: p.policy_type,
      policy_domain: p.policy_domain,
      policy_string: JSON.parse(p.policy_string) as string[],
      mx_host: JSON.parse(p.mx_host) as string[],
      total_successful_session_count: p.total_successful_session_count,
      total_failure_session_count: p.total_failure_session_count,
      failure_details: details.all(p.id),
    })),
  };
}

/** Failed sessions per sending MTA IP, most failures first. */
export function tlsFailuresBySource(db: ServiceDb, filter: TlsReportFilter) {
  const rows = db
    .prepare<FilterArgs, { sending_mta_ip: string | null; failed: number; types: string; reports: number }>(
      `SELECT f.sending_mta_ip, SUM(f.failed_session_count) AS failed, group_concat(DISTINCT f.result_type) AS types,
              COUNT(DISTINCT r.id) AS reports
         FROM ${DETAILS_FROM}
        GROUP BY f.sending_mta_ip HAVING SUM(f.failed_session_count) > 0 ORDER BY failed DESC, f.sending_mta_ip`,
    )
    .all(args(filter));
  return rows.map((r) => ({
    sending_mta_ip: r.sending_mta_ip,
    successful_session_count: null,
    failed_session_count: r.failed,
    result_types: r.types.split(',').sort(),
    report_count: r.reports,
  }));
}

/** Failed sessions per result type, most failures first. */
export function tlsFailuresByResult(db: ServiceDb, filter: TlsReportFilter) {
  return db
    .prepare<FilterArgs, { result_type: string; failed_session_count: number; report_count: number }>(
      `SELECT f.result_type, SUM(f.failed_session_count) AS failed_session_count,
              COUNT(DISTINCT r.id) AS report_count
         FROM ${DETAILS_FROM}
        GROUP BY f.result_type HAVING SUM(f.failed_session_count) > 0 ORDER BY failed_session_count DESC, f.result_type`,
    )
    .all(args(filter));
}

/** Session totals of the matching policies, failure rate, and failed sessions per (reason code, result type). */
export function tlsFailureSummary(db: ServiceDb, filter: TlsReportFilter) {
  const a = args(filter);
  const totals = db
    .prepare<FilterArgs, { ok: number; failed: number }>(
      `SELECT coalesce(SUM(p.total_successful_session_count), 0) AS ok,
              coalesce(SUM(p.total_failure_session_count), 0) AS failed
         FROM tls_report_policies p JOIN tls_reports r ON r.id = p.tls_report_id
        WHERE ${REPORT_CONDITION} AND ${POLICY_CONDITION}`,
    )
    .get(a)!;
  const byReason = db
    .prepare<
      FilterArgs,
      { failure_reason_code: string | null; result_type: string; failed_session_count: number }
    >(
      `SELECT f.failure_reason_code, f.result_type, SUM(f.failed_session_count) AS failed_session_count
         FROM ${DETAILS_FROM}
        GROUP BY f.failure_reason_code, f.result_type
       HAVING SUM(f.failed_session_count) > 0 OR f.failure_reason_code IS NOT NULL
        ORDER BY failed_session_count DESC, f.result_type, f.failure_reason_code`,
    )
    .all(a);
  return {
    total_successful_session_count: totals.ok,
    total_failure_session_count: totals.failed,
    failure_rate: percentOneDecimal(totals.failed, totals.ok + totals.failed),
    by_reason: byReason,
  };
}

/** One page of failure details with a non-zero failure count or a reason code, newest report first. */
export function listTlsFailureDetails(
  db: ServiceDb,
  filter: TlsReportFilter,
  page: { limit: number; offset: number },
) {
  const from = `FROM ${DETAILS_FROM} AND (f.failed_session_count > 0 OR f.failure_reason_code IS NOT NULL)`;
  const a = args(filter);
  const total = db.prepare<FilterArgs, { n: number }>(`SELECT count(*) AS n ${from}`).get(a)!.n;
  const rows = db
    .prepare<
      FilterArgs,
      DetailRow & {
        tls_report_id: number;
        report_id: string;
        organization_name: string;
        policy_domain: string;
        date_range_start: string;
        date_range_end: string;
      }
    >(
      `SELECT ${DETAIL_COLUMNS}, r.id AS tls_report_id, r.report_id, r.organization_name, p.policy_domain,
              r.date_range_start, r.date_range_end
         ${from}
        ORDER BY r.date_range_start DESC, r.id DESC, p.position, f.position
        LIMIT @limit OFFSET @offset`,
    )
    .all({ ...a, limit: page.limit, offset: page.offset });
  return { total, rows };
}
