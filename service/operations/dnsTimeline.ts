/**
 * The DNS timeline of a domain (S3a): GET /domains/{id}/dns/timeline, /dns/current, /dns/history,
 * /dns/changes and /dns/snapshots, read from what guard scans recorded (service/scan/guardScan.ts).
 *
 * Orders: events (timeline, changes) newest first; history chronological (oldest first, the document's
 * "chronological merge"); snapshots newest first per type (the latest `limit`). Every list is bounded by the
 * date window (default the last 30 days, both ends inclusive).
 */
import type { OperationHandlers, OperationRequest, ServiceContext } from '../http/operation.ts';
import { pageParams, paginated } from '../http/pagination.ts';
import { dateWindow } from '../http/dateWindow.ts';
import { PROTOCOLS, type Protocol } from '../../shared/email-auth/protocols.ts';
import { requireAuth } from '../http/requireAuth.ts';
import { requireVisibleDomain } from '../domainOps/domainStore.ts';
import { verificationFlags } from '../scan/domainHealth.ts';
import {
  latestSnapshot,
  snapshotProtocols,
  type Connection,
  type RecordSnapshotRow,
  type SnapshotProtocolRow,
} from '../scan/scanStore.ts';
import {
  countEvents,
  countRecordSnapshots,
  lastTransitions,
  listEvents,
  listRecordSnapshots,
  presentEvent,
  timelineSummary,
  type EventFilter,
} from '../scan/timelineQueries.ts';

interface TimelineQuery {
  record_type?: Protocol;
  action?: Connection;
  start_date?: string;
  end_date?: string;
  page?: number;
  limit?: number;
}

function eventFilter(req: OperationRequest, ctx: ServiceContext, domainId: number): EventFilter {
  const q = req.query as TimelineQuery;
  return {
    domainId,
    window: dateWindow(q, ctx.clock),
    ...(q.record_type ? { recordType: q.record_type } : {}),
    ...(q.action ? { action: q.action } : {}),
  };
}

/** The newest scan's per-protocol rows (empty when never scanned). */
function currentRows(ctx: ServiceContext, domainId: number): Map<Protocol, SnapshotProtocolRow> {
  const latest = latestSnapshot(ctx.db, domainId);
  return latest ? snapshotProtocols(ctx.db, latest.id) : new Map();
}

function historyRow(s: RecordSnapshotRow): Record<string, unknown> {
  return {
    record_type: s.record_type,
    record_value: s.record_value,
    occurred_at: s.occurred_at,
    ...(s.record_type === 'spf' ? { lookup_count: s.lookup_count ?? 0 } : {}),
  };
}

function snapshotRow(s: RecordSnapshotRow): Record<string, unknown> {
  return {
    id: s.id,
    record_value: s.record_value,
    occurred_at: s.occurred_at,
    ...(s.record_type === 'spf' ? { lookup_count: s.lookup_count ?? 0 } : {}),
  };
}

export const handlers: OperationHandlers = {
  getDnsTimeline: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const filter = eventFilter(req, ctx, domain.id);
    const { limit } = pageParams(req.query, 10);
    const rows = currentRows(ctx, domain.id);
    const current = Object.fromEntries(
      PROTOCOLS.map((p) => [p, rows.get(p)?.connection ?? 'disconnected']),
    ) as Record<Protocol, Connection>;
    return {
      data: {
        domain_id: domain.id,
        fqdn: domain.fqdn,
        summary: timelineSummary(ctx.db, domain.id, filter.window, current),
        events: listEvents(ctx.db, filter, limit).map(presentEvent),
      },
    };
  },

  getDnsCurrent: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const rows = currentRows(ctx, domain.id);
    const last = lastTransitions(ctx.db, domain.id);
    // Before the first scan the verification flags are all that is known.
    const flags = verificationFlags(domain);
    const protocols = Object.fromEntries(
      PROTOCOLS.map((p) => {
        const row = rows.get(p);
        return [
          p,
          {
            current_status: row?.connection ?? 'disconnected',
            verified: row ? row.pass === 1 : flags[p],
            status: row?.status ?? 'not_scanned',
            ...last[p],
            record_value: row?.record_value ?? null,
            ...(p === 'spf' ? { lookup_count: row?.lookup_count ?? 0 } : {}),
          },
        ];
      }),
    );
    return { data: { domain_id: domain.id, fqdn: domain.fqdn, protocols } };
  },

  listDnsHistory: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const q = req.query as { record_type?: 'dmarc' | 'spf' };
    const filter = {
      domainId: domain.id,
      window: dateWindow(req.query, ctx.clock),
      ...(q.record_type ? { recordType: q.record_type } : {}),
    };
    const page = pageParams(req.query);
    const total = countRecordSnapshots(ctx.db, filter);
    const rows = listRecordSnapshots(ctx.db, filter, 'asc', page.limit, page.offset);
    return paginated(total, rows.map(historyRow), page);
  },

  listDnsChanges: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const filter = eventFilter(req, ctx, domain.id);
    const page = pageParams(req.query);
    const total = countEvents(ctx.db, filter);
    return paginated(total, listEvents(ctx.db, filter, page.limit, page.offset).map(presentEvent), page);
  },

  getDnsSnapshots: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const q = req.query as { record_type?: 'dmarc' | 'spf' };
    const window = dateWindow(req.query, ctx.clock);
    const { limit } = pageParams(req.query, 10);
    const of = (type: 'dmarc' | 'spf') =>
      q.record_type && q.record_type !== type
        ? []
        : listRecordSnapshots(ctx.db, { domainId: domain.id, window, recordType: type }, 'desc', limit).map(
            snapshotRow,
          );
    return { data: { domain_id: domain.id, fqdn: domain.fqdn, dmarc: of('dmarc'), spf: of('spf') } };
  },
};
