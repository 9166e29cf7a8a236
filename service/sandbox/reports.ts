/**
 * Report uploads and the dashboard recompute — how reports reach the sandbox service (a real deployment
 * receives them by mail at its reporting addresses):
 *   POST /_sandbox/reports/dmarc[?domain_id=N]  body: the report bytes as received — XML (application/xml,
 *     text/xml), gzip (application/gzip) or zip (application/zip), or application/octet-stream for any of them;
 *   POST /_sandbox/reports/tls[?domain_id=N]    body: JSON (application/json, application/tlsrpt+json) or gzip
 *     (application/gzip, application/tlsrpt+gzip, application/octet-stream);
 *   → 201 {data: {id, report_id, domain_id, records, messages, duplicate: false}} (id: database id; DMARC:
 *   records = <record> rows, messages = sum of their counts; TLS: records = failure-detail rows, messages =
 *   successful + failed sessions), or 200 with duplicate true when the report was already stored (nothing
 *   changes). A report that cannot be read answers 422 (413 when it unpacks too large) and changes nothing.
 *   domain_id is needed only when several teams registered the report's domain (service/reports/reportDomain.ts).
 *   POST /_sandbox/dashboard-cache {domain_id, start_date?, end_date?} — computes and stores the dashboard
 *   snapshot of that window now (default: the last 30 days) → {domain_id, start_date, end_date, cached_at, data}.
 * The reverse DNS control of ./reverseDns.ts (names of report sources) is mounted with these.
 */
import { ServiceError, notFound, validationError } from '../http/serviceError.ts';
import { dateWindow } from '../http/dateWindow.ts';
import type { ServiceContext } from '../http/operation.ts';
import { ingestDmarcReport } from '../reports/dmarcIngest.ts';
import { ingestTlsReport } from '../reports/tlsIngest.ts';
import type { IngestOutcome } from '../reports/dmarcReportStore.ts';
import { storeDashboardSnapshot } from '../reports/dashboardSnapshot.ts';
import type { SandboxRequest, SandboxRoute } from './sandboxRoute.ts';
import { routes as reverseDns } from './reverseDns.ts';

const DMARC_TYPES = [
  'application/xml',
  'text/xml',
  'application/gzip',
  'application/zip',
  'application/octet-stream',
];
const TLS_TYPES = [
  'application/json',
  'application/tlsrpt+json',
  'application/gzip',
  'application/tlsrpt+gzip',
  'application/octet-stream',
];

function uploadedBytes(req: SandboxRequest, types: readonly string[]): Uint8Array {
  if (!Buffer.isBuffer(req.body)) {
    throw new ServiceError(
      415,
      'unsupported_media_type',
      `Send the report bytes with Content-Type ${types.join(', ')}.`,
    );
  }
  return new Uint8Array(req.body.buffer, req.body.byteOffset, req.body.byteLength);
}

function domainIdOf(req: SandboxRequest): number | undefined {
  const raw = req.query.domain_id;
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^[1-9]\d{0,15}$/.test(raw)) {
    throw validationError([{ field: 'query.domain_id', message: 'must be a positive integer' }]);
  }
  return Number(raw);
}

function uploadRoute(
  path: string,
  types: readonly string[],
  ingest: (ctx: ServiceContext, bytes: Uint8Array, options: { domainId?: number }) => Promise<IngestOutcome>,
): SandboxRoute {
  return {
    method: 'POST',
    path,
    rawBody: types,
    handler: async (req, ctx) => {
      const bytes = uploadedBytes(req, types);
      const outcome = await ingest(ctx, bytes, { domainId: domainIdOf(req) });
      return { status: outcome.duplicate ? 200 : 201, data: outcome };
    },
  };
}

export const routes: SandboxRoute[] = [
  uploadRoute('/reports/dmarc', DMARC_TYPES, ingestDmarcReport),
  uploadRoute('/reports/tls', TLS_TYPES, ingestTlsReport),
  {
    method: 'POST',
    path: '/dashboard-cache',
    body: {
      type: 'object',
      required: ['domain_id'],
      additionalProperties: false,
      properties: {
        domain_id: { type: 'integer', minimum: 1 },
        start_date: { type: 'string', format: 'date' },
        end_date: { type: 'string', format: 'date' },
      },
    },
    handler: (req, ctx) => {
      const body = req.body as { domain_id: number; start_date?: string; end_date?: string };
      const domain = ctx.db
        .prepare<[number], { id: number }>('SELECT id FROM domains WHERE id = ?')
        .get(body.domain_id);
      if (!domain) throw notFound('Domain');
      const window = dateWindow(body, ctx.clock);
      const snapshot = ctx.db.transaction(() =>
        storeDashboardSnapshot(ctx.db, domain.id, window, ctx.clock()),
      )();
      return {
        status: 201,
        data: {
          domain_id: domain.id,
          start_date: window.start_date,
          end_date: window.end_date,
          cached_at: snapshot.cached_at,
          data: snapshot.data,
        },
      };
    },
  },
  ...reverseDns,
];
