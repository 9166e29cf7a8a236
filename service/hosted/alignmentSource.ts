/**
 * Reads the alignment numbers the DMARC recommendation needs from the ingested aggregate reports
 * (dmarc_reports / dmarc_report_records, 035_dmarc_reports.sql): a report's messages count on the UTC day
 * of its date_begin; a message passed DMARC when either aligned verdict (policy_dkim, policy_spf) is pass.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import type { AlignmentWindow, DailyAlignment } from './dmarcRecommendation.ts';

/** Source of per-day DMARC alignment of a domain; from/to are inclusive YYYY-MM-DD dates (UTC). */
export type AlignmentSource = (
  domain: { id: number; fqdn: string },
  from: string,
  to: string,
) => AlignmentWindow;

/** The alignment source over the service database. */
export function dbAlignmentSource(db: ServiceDb): AlignmentSource {
  return (domain, from, to) => {
    const days = db
      .prepare<{ domainId: number; from: string; to: string }, DailyAlignment>(
        `SELECT substr(r.date_begin, 1, 10) AS date, SUM(x.count) AS messages,
                SUM(CASE WHEN x.policy_dkim = 'pass' OR x.policy_spf = 'pass' THEN x.count ELSE 0 END) AS dmarcPass
           FROM dmarc_report_records x JOIN dmarc_reports r ON r.id = x.report_id
          WHERE r.domain_id = @domainId AND substr(r.date_begin, 1, 10) BETWEEN @from AND @to
          GROUP BY 1 ORDER BY 1`,
      )
      .all({ domainId: domain.id, from, to });
    const failing =
      db
        .prepare<{ domainId: number; from: string; to: string }, { n: number }>(
          `SELECT COUNT(DISTINCT x.source_ip) AS n
             FROM dmarc_report_records x JOIN dmarc_reports r ON r.id = x.report_id
            WHERE r.domain_id = @domainId AND substr(r.date_begin, 1, 10) BETWEEN @from AND @to
              AND x.policy_dkim <> 'pass' AND x.policy_spf <> 'pass'`,
        )
        .get({ domainId: domain.id, from, to })?.n ?? 0;
    return { days, failingSources: failing };
  };
}
