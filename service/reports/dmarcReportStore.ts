/** Rows of the ingested DMARC aggregate reports (035_dmarc_reports.sql). */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { prepared } from '../../shared/sqlite/preparedStatements.ts';
import type { DmarcAggregateReport } from '../ingest/index.ts';

/** What the ingestion of one report did (also the answer of the upload control). */
export interface IngestOutcome {
  /** Database id of the stored report. */
  id: number;
  /** The report's own id (report_id / report-id). */
  report_id: string;
  domain_id: number;
  /** Records stored (DMARC <record>s; TLS: failure-detail rows). */
  records: number;
  /** Messages covered (DMARC: sum of counts; TLS: successful + failed sessions). */
  messages: number;
  /** True when the report was already stored: nothing changed. */
  duplicate: boolean;
}

interface StoredReport {
  id: number;
  report_id: string;
  record_count: number;
  message_count: number;
}

/** The already-stored copy of a report (same domain, reporter and report id), if any. */
export function findDmarcReport(
  db: ServiceDb,
  domainId: number,
  report: Pick<DmarcAggregateReport, 'org_name' | 'report_id'>,
): IngestOutcome | null {
  const row = prepared<[number, string, string], StoredReport>(
    db,
    `SELECT id, report_id, record_count, message_count FROM dmarc_reports
      WHERE domain_id = ? AND org_name = ? AND report_id = ?`,
  ).get(domainId, report.org_name, report.report_id);
  if (!row) return null;
  return {
    id: row.id,
    report_id: row.report_id,
    domain_id: domainId,
    records: row.record_count,
    messages: row.message_count,
    duplicate: true,
  };
}

/** Inserts a report and its records (call inside a transaction); `sourceNames` maps each source IP to its name. */
export function insertDmarcReport(
  db: ServiceDb,
  domainId: number,
  report: DmarcAggregateReport,
  sourceNames: ReadonlyMap<string, string>,
  receivedAt: Date,
): IngestOutcome {
  const p = report.policy_published;
  const id = Number(
    prepared(
      db,
      `INSERT INTO dmarc_reports (domain_id, org_name, email, extra_contact_info, report_id, date_begin, date_end,
           policy_domain, policy_adkim, policy_aspf, policy_p, policy_sp, policy_pct, policy_fo, errors, warnings,
           record_count, message_count, received_at)
         VALUES (@domainId, @org, @email, @extra, @reportId, @begin, @end, @domain, @adkim, @aspf, @p, @sp, @pct,
           @fo, @errors, @warnings, @records, @messages, @receivedAt)`,
    ).run({
      domainId,
      org: report.org_name,
      email: report.email,
      extra: report.extra_contact_info ?? null,
      reportId: report.report_id,
      begin: report.date_range.begin,
      end: report.date_range.end,
      domain: p.domain,
      adkim: p.adkim,
      aspf: p.aspf,
      p: p.p,
      sp: p.sp,
      pct: p.pct,
      fo: p.fo ?? null,
      errors: JSON.stringify(report.errors),
      warnings: JSON.stringify(report.warnings),
      records: report.records.length,
      messages: report.totals.messages,
      receivedAt: receivedAt.toISOString(),
    }).lastInsertRowid,
  );
  const insertRecord = prepared(
    db,
    `INSERT INTO dmarc_report_records (report_id, source_ip, source_name, count, disposition, policy_dkim,
       policy_spf, header_from, envelope_from, envelope_to, reasons, dkim_results, spf_results)
     VALUES (@id, @ip, @name, @count, @disposition, @dkim, @spf, @headerFrom, @envelopeFrom, @envelopeTo,
       @reasons, @dkimResults, @spfResults)`,
  );
  for (const r of report.records) {
    insertRecord.run({
      id,
      ip: r.source_ip,
      name: sourceNames.get(r.source_ip) ?? r.source_ip,
      count: r.count,
      disposition: r.disposition,
      dkim: r.policy_dkim,
      spf: r.policy_spf,
      headerFrom: r.header_from,
      envelopeFrom: r.envelope_from ?? null,
      envelopeTo: r.envelope_to ?? null,
      reasons: JSON.stringify(r.reasons),
      dkimResults: JSON.stringify(r.dkim_results),
      spfResults: JSON.stringify(r.spf_results),
    });
  }
  return {
    id,
    report_id: report.report_id,
    domain_id: domainId,
    records: report.records.length,
    messages: report.totals.messages,
    duplicate: false,
  };
}
