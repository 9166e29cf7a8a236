/**
 * Mail analytics of a domain from its DMARC aggregate reports (S3b; service/reports/): GET mail-volume,
 * sending-services, failed-sources and dashboard-cache. Windows are the spec's common date window (default:
 * 30 days before today … today); a report counts in the window when its date range begins in it.
 */
import type { OperationHandlers } from '../http/operation.ts';
import { dateWindow } from '../http/dateWindow.ts';
import { pageParams } from '../http/pagination.ts';
import { requireAuth } from '../http/requireAuth.ts';
import { requireVisibleDomain } from '../domainOps/domainStore.ts';
import { mailVolume } from '../reports/mailVolume.ts';
import { sendingSources } from '../reports/sendingSources.ts';
import { readDashboardSnapshot } from '../reports/dashboardSnapshot.ts';

export const handlers: OperationHandlers = {
  getMailVolume: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const window = dateWindow(req.query, ctx.clock);
    return {
      data: {
        domain_id: domain.id,
        fqdn: domain.fqdn,
        start_date: window.start_date,
        end_date: window.end_date,
        ...mailVolume(ctx.db, domain.id, window),
      },
    };
  },

  listSendingServices: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const window = dateWindow(req.query, ctx.clock);
    const { limit } = pageParams(req.query, 10);
    return {
      data: {
        domain_id: domain.id,
        fqdn: domain.fqdn,
        services: sendingSources(ctx.db, domain.id, window, { failingOnly: false, limit }),
      },
    };
  },

  listFailedSources: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const window = dateWindow(req.query, ctx.clock);
    const { limit } = pageParams(req.query, 10);
    return {
      data: {
        domain_id: domain.id,
        fqdn: domain.fqdn,
        failed_sources: sendingSources(ctx.db, domain.id, window, { failingOnly: true, limit }),
      },
    };
  },

  getDashboardCache: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const window = dateWindow(req.query, ctx.clock);
    const snapshot = readDashboardSnapshot(ctx.db, domain.id, window);
    return {
      data: {
        domain_id: domain.id,
        fqdn: domain.fqdn,
        cached: snapshot !== null,
        cached_at: snapshot?.cached_at ?? null,
        start_date: window.start_date,
        end_date: window.end_date,
        data: snapshot?.data ?? null,
      },
    };
  },
};
