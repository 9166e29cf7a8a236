/**
 * Ingestion of one SMTP TLS report (RFC 8460): parse (service/ingest), find the domain its policies are about
 * (the first policy-domain registered in the service), then store report, policies and failure details and
 * refresh the domain's dashboard snapshots in one transaction. A report already stored for the domain (same
 * organization-name and report-id) is answered `duplicate: true` without any change.
 */
import type { ServiceContext } from '../http/operation.ts';
import { dateWindow } from '../http/dateWindow.ts';
import { parseTlsReport, type TlsReport } from '../ingest/index.ts';
import { refreshDashboardSnapshots } from './dashboardSnapshot.ts';
import type { IngestOutcome } from './dmarcReportStore.ts';
import type { IngestOptions } from './dmarcIngest.ts';
import { reportDomain } from './reportDomain.ts';
import { reportRefusal } from './reportRefusal.ts';
import { findTlsReport, insertTlsReport } from './tlsReportStore.ts';

const WHAT = 'TLS report';

/** Stores a TLS report given as JSON or gzip bytes; throws ServiceError (422/413/404). */
export async function ingestTlsReport(
  ctx: ServiceContext,
  bytes: Uint8Array,
  options: IngestOptions = {},
): Promise<IngestOutcome> {
  let report: TlsReport;
  try {
    report = parseTlsReport(bytes);
  } catch (error) {
    throw reportRefusal(error, WHAT);
  }
  const domain = reportDomain(
    ctx.db,
    report.policies.map((p) => p.policy.policy_domain),
    { domainId: options.domainId, field: 'body.policies.policy.policy-domain', what: WHAT },
  );
  const now = ctx.clock();
  return ctx.db.transaction(() => {
    const stored = findTlsReport(ctx.db, domain.id, report);
    if (stored) return stored;
    const inserted = insertTlsReport(ctx.db, domain, report, now);
    if (options.refreshDashboard === false) return inserted;
    refreshDashboardSnapshots(
      ctx.db,
      domain.id,
      report.date_range.start_datetime.slice(0, 10),
      dateWindow({}, () => now),
      now,
    );
    return inserted;
  })();
}
