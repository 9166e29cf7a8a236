/**
 * Ingestion of one DMARC aggregate report: parse (service/ingest), find the domain it is about, name its
 * sources (reverse DNS, before any write, within the report's deadline), then store report + records and refresh the domain's dashboard
 * snapshots in one transaction — a refused report changes nothing, and a report already stored for the domain
 * (same reporter org_name and report_id) is answered `duplicate: true` without any change.
 */
import type { ServiceContext } from '../http/operation.ts';
import { dateWindow } from '../http/dateWindow.ts';
import { parseDmarcAggregate, type DmarcAggregateReport } from '../ingest/index.ts';
import { refreshDashboardSnapshots } from './dashboardSnapshot.ts';
import { findDmarcReport, insertDmarcReport, type IngestOutcome } from './dmarcReportStore.ts';
import { reportDomain } from './reportDomain.ts';
import { reportRefusal } from './reportRefusal.ts';
import { DEFAULT_NAMING_BOUNDS, nameSources } from './sourceNaming.ts';

const WHAT = 'DMARC aggregate report';
/**
 * The least time naming gets when parsing ate most of the report's deadline: enough for cached names and a
 * resolver that answers, not for one that waits.
 */
const MIN_NAMING_MS = 250;

/** Options of an ingestion. */
export interface IngestOptions {
  /** The domain the report is for (required when several teams registered the report's domain). */
  domainId?: number;
  /**
   * Recompute the domain's dashboard snapshots in the same transaction (default true). Bulk loaders (the demo
   * seed's history) pass false and store the snapshots they want once at the end.
   */
  refreshDashboard?: boolean;
  /**
   * Time from the start of the ingestion by which every source must be named (default 1.5 s); what DNS has not
   * answered by then is named by its address. Counted from the start so a slow parse does not add to it.
   */
  deadlineMs?: number;
}

/** Stores a DMARC aggregate report given as XML, .xml.gz or .zip bytes; throws ServiceError (422/413/404). */
export async function ingestDmarcReport(
  ctx: ServiceContext,
  bytes: Uint8Array,
  options: IngestOptions = {},
): Promise<IngestOutcome> {
  // Wall time, not ctx.clock: the deadline bounds real waiting on DNS (a test's manual clock never moves).
  const started = Date.now();
  let report: DmarcAggregateReport;
  try {
    report = parseDmarcAggregate(bytes);
  } catch (error) {
    throw reportRefusal(error, WHAT);
  }
  const domain = reportDomain(ctx.db, [report.policy_published.domain], {
    domainId: options.domainId,
    field: 'body.policy_published.domain',
    what: WHAT,
  });
  const stored = findDmarcReport(ctx.db, domain.id, report);
  if (stored) return stored;
  const deadlineMs = options.deadlineMs ?? DEFAULT_NAMING_BOUNDS.deadlineMs;
  const names = await nameSources(
    ctx.resolver,
    report.records.map((r) => r.source_ip),
    {
      ...DEFAULT_NAMING_BOUNDS,
      deadlineMs: Math.max(MIN_NAMING_MS, deadlineMs - (Date.now() - started)),
    },
  );
  const now = ctx.clock();
  return ctx.db.transaction(() => {
    // Another upload of the same report may have landed while the names were looked up.
    const raced = findDmarcReport(ctx.db, domain.id, report);
    if (raced) return raced;
    const outcome = insertDmarcReport(ctx.db, domain.id, report, names, now);
    if (options.refreshDashboard === false) return outcome;
    refreshDashboardSnapshots(
      ctx.db,
      domain.id,
      report.date_range.begin.slice(0, 10),
      dateWindow({}, () => now),
      now,
    );
    return outcome;
  })();
}
