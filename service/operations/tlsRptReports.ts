/**
 * The received SMTP TLS reports of a domain (S3b; stored by service/reports/tlsIngest.ts, read through
 * service/reports/tlsReportQueries.ts): list, one report, by sending IP, by result type, failure totals and
 * failure detail rows. The TLS-RPT configuration operations are in ./tlsRpt.ts. Dates are optional filters on
 * the day a report's range starts (the interface gives these reads no default window).
 */
import type { OperationHandlers, OperationRequest } from '../http/operation.ts';
import { optionalDateWindow } from '../http/dateWindow.ts';
import { pageParams, paginated } from '../http/pagination.ts';
import { notFound } from '../http/serviceError.ts';
import type { ServiceContext } from '../http/operation.ts';
import { requireAuth } from '../http/requireAuth.ts';
import { requireVisibleDomain } from '../domainOps/domainStore.ts';
import {
  findTlsReportDetail,
  listTlsFailureDetails,
  listTlsReports,
  tlsFailureSummary,
  tlsFailuresByResult,
  tlsFailuresBySource,
  type TlsReportFilter,
} from '../reports/tlsReportQueries.ts';

function filterOf(req: OperationRequest, ctx: ServiceContext): TlsReportFilter {
  const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
  const window = optionalDateWindow(req.query);
  return {
    domainId: domain.id,
    policyDomain: req.query.policy_domain,
    policyMode: req.query.policy_mode,
    fromTimestamp: window.fromTimestamp,
    toTimestamp: window.toTimestamp,
  };
}

export const handlers: OperationHandlers = {
  listTlsRptReports: (req, ctx) => {
    const filter = filterOf(req, ctx);
    const page = pageParams(req.query);
    const { total, rows } = listTlsReports(ctx.db, filter, page);
    return paginated(total, rows, page);
  },

  getTlsRptReport: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const report = findTlsReportDetail(ctx.db, domain.id, String(req.params.report_id));
    if (!report) throw notFound('TLS report');
    return { data: report };
  },

  getTlsRptBySource: (req, ctx) => {
    const filter = filterOf(req, ctx);
    return { data: { domain_id: filter.domainId, sources: tlsFailuresBySource(ctx.db, filter) } };
  },

  getTlsRptByResult: (req, ctx) => {
    const filter = filterOf(req, ctx);
    return { data: { domain_id: filter.domainId, results: tlsFailuresByResult(ctx.db, filter) } };
  },

  getTlsRptFailures: (req, ctx) => {
    const filter = filterOf(req, ctx);
    return { data: { domain_id: filter.domainId, ...tlsFailureSummary(ctx.db, filter) } };
  },

  listTlsRptFailureDetails: (req, ctx) => {
    const filter = filterOf(req, ctx);
    const page = pageParams(req.query);
    const { total, rows } = listTlsFailureDetails(ctx.db, filter, page);
    return paginated(total, rows, page);
  },
};
