/** Rows of the ingested SMTP TLS reports (036_tls_reports.sql). */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { prepared } from '../../shared/sqlite/preparedStatements.ts';
import type { TlsReport } from '../ingest/index.ts';
import { normalizeDomain } from '../../shared/email-auth/protocols.ts';
import type { IngestOutcome } from './dmarcReportStore.ts';
import { tlsPolicyMode } from './tlsPolicyMode.ts';

interface StoredReport {
  id: number;
  report_id: string;
  failures: number;
  sessions: number;
}

/** The already-stored copy of a report (same domain, organization and report-id), if any. */
export function findTlsReport(
  db: ServiceDb,
  domainId: number,
  report: Pick<TlsReport, 'organization_name' | 'report_id'>,
): IngestOutcome | null {
  const row = prepared<[number, string, string], StoredReport>(
    db,
    `SELECT r.id, r.report_id,
              r.total_successful_session_count + r.total_failure_session_count AS sessions,
              (SELECT count(*) FROM tls_failure_details f JOIN tls_report_policies p ON p.id = f.policy_id
                WHERE p.tls_report_id = r.id) AS failures
         FROM tls_reports r WHERE r.domain_id = ? AND r.organization_name = ? AND r.report_id = ?`,
  ).get(domainId, report.organization_name, report.report_id);
  if (!row) return null;
  return {
    id: row.id,
    report_id: row.report_id,
    domain_id: domainId,
    records: row.failures,
    messages: row.sessions,
    duplicate: true,
  };
}

/**
 * Inserts a report with its policies and failure details (call inside a transaction). The report's summary
 * policy is its first policy for `fqdn`.
 */
export function insertTlsReport(
  db: ServiceDb,
  domain: { id: number; fqdn: string },
  report: TlsReport,
  receivedAt: Date,
): IngestOutcome {
  const summary =
    report.policies.find((p) => normalizeDomain(p.policy.policy_domain) === domain.fqdn) ??
    report.policies[0]!;
  const id = Number(
    prepared(
      db,
      `INSERT INTO tls_reports (domain_id, report_id, organization_name, contact_info, date_range_start,
           date_range_end, policy_domain, policy_type, policy_mode, total_successful_session_count,
           total_failure_session_count, received_at)
         VALUES (@domainId, @reportId, @org, @contact, @start, @end, @policyDomain, @policyType, @policyMode,
           @ok, @failed, @receivedAt)`,
    ).run({
      domainId: domain.id,
      reportId: report.report_id,
      org: report.organization_name,
      contact: report.contact_info ?? null,
      start: report.date_range.start_datetime,
      end: report.date_range.end_datetime,
      policyDomain: normalizeDomain(summary.policy.policy_domain),
      policyType: summary.policy.policy_type,
      policyMode: tlsPolicyMode(summary.policy),
      ok: report.totals.successful_sessions,
      failed: report.totals.failed_sessions,
      receivedAt: receivedAt.toISOString(),
    }).lastInsertRowid,
  );
  const insertPolicy = prepared(
    db,
    `INSERT INTO tls_report_policies (tls_report_id, position, policy_type, policy_domain, policy_mode,
       policy_string, mx_host, total_successful_session_count, total_failure_session_count)
     VALUES (@id, @position, @type, @domain, @mode, @policyString, @mxHost, @ok, @failed)`,
  );
  const insertDetail = prepared(
    db,
    `INSERT INTO tls_failure_details (policy_id, position, result_type, sending_mta_ip, receiving_mx_hostname,
       receiving_mx_helo, receiving_ip, failed_session_count, additional_information, failure_reason_code)
     VALUES (@policyId, @position, @resultType, @sendingIp, @mxHostname, @mxHelo, @receivingIp, @failed,
       @info, @reasonCode)`,
  );
  let details = 0;
  report.policies.forEach((p, position) => {
    const policyId = Number(
      insertPolicy.run({
        id,
        position,
        type: p.policy.policy_type,
        domain: normalizeDomain(p.policy.policy_domain),
        mode: tlsPolicyMode(p.policy),
        policyString: JSON.stringify(p.policy.policy_string),
        mxHost: JSON.stringify(p.policy.mx_host ?? []),
        ok: p.summary.total_successful_session_count,
        failed: p.summary.total_failure_session_count,
      }).lastInsertRowid,
    );
    p.failure_details.forEach((f, detailPosition) => {
      insertDetail.run({
        policyId,
        position: detailPosition,
        resultType: f.result_type,
        sendingIp: f.sending_mta_ip ?? null,
        mxHostname: f.receiving_mx_hostname ?? null,
        mxHelo: f.receiving_mx_helo ?? null,
        receivingIp: f.receiving_ip ?? null,
        failed: f.failed_session_count,
        info: f.additional_information ?? null,
        reasonCode: f.failure_reason_code ?? null,
      });
      details++;
    });
  });
  return {
    id,
    report_id: report.report_id,
    domain_id: domain.id,
    records: details,
    messages: report.totals.successful_sessions + report.totals.failed_sessions,
    duplicate: false,
  };
}
