/**
 * POST /domains/{id}/check-dns and GET /domains/{id}/dns-fetch-result: a full DNS fetch of the five
 * protocol records and the MX set, stored per domain and readable for 7 days (the spec's rule).
 */
import type { ServiceContext } from '../http/operation.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import { PROTOCOLS } from '../../shared/email-auth/protocols.ts';
import type { DomainRow } from '../domains/domainRow.ts';
import { ServiceError } from '../http/serviceError.ts';
import { examinePublishedRecord, type RecordExamination } from './recordExamination.ts';

/** How long a stored result stays readable. */
export const DNS_FETCH_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

function fetchRecord(e: RecordExamination): Record<string, unknown> {
  return {
    name: e.name,
    found: e.values.length > 0,
    values: e.values,
    valid: e.status === 'valid',
    lookup_count: e.lookupCount,
    errors: e.errors,
    warnings: e.warnings,
  };
}

/** MX records as "priority host", lowest priority first; none (or a failed lookup) gives []. */
async function mxRecords(fqdn: string, resolve: DnsResolve): Promise<string[]> {
  try {
    const answers = await resolve(fqdn, 'MX');
    return [...answers]
      .sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange))
      .map((mx) => `${mx.priority} ${mx.exchange.replace(/\.$/, '')}`);
  } catch {
    // No MX (void answer) and a failed lookup both leave the list empty; the records carry the DNS errors.
    return [];
  }
}

/** Runs the fetch, stores it (replacing the previous one) and returns the document's `DnsFetchResult`. */
export async function runDnsFetch(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'resolver'>,
  domain: DomainRow,
): Promise<Record<string, unknown>> {
  const [examinations, mx] = await Promise.all([
    Promise.all(PROTOCOLS.map((p) => examinePublishedRecord(p, domain.fqdn, ctx.resolver))),
    mxRecords(domain.fqdn, ctx.resolver),
  ]);
  const fetchedAt = ctx.clock();
  const result = {
    domain_id: domain.id,
    fqdn: domain.fqdn,
    fetched_at: fetchedAt.toISOString(),
    expires_at: new Date(fetchedAt.getTime() + DNS_FETCH_RETENTION_MS).toISOString(),
    records: Object.fromEntries(examinations.map((e) => [e.protocol, fetchRecord(e)])),
    mx,
  };
  ctx.db.transaction(() => {
    ctx.db
      .prepare(
        `INSERT INTO dns_fetch_results (domain_id, fetched_at, expires_at, result) VALUES (?, ?, ?, ?)
         ON CONFLICT (domain_id) DO UPDATE SET fetched_at = excluded.fetched_at,
           expires_at = excluded.expires_at, result = excluded.result`,
      )
      .run(domain.id, result.fetched_at, result.expires_at, JSON.stringify(result));
    ctx.db.prepare('UPDATE domains SET dns_checked_at = ? WHERE id = ?').run(result.fetched_at, domain.id);
  })();
  return result;
}

/** The stored result while it is at most 7 days old, else 404 not_found. */
export function storedDnsFetch(db: ServiceDb, domainId: number, now: Date): Record<string, unknown> {
  const row = db
    .prepare<[number], { expires_at: string; result: string }>(
      'SELECT expires_at, result FROM dns_fetch_results WHERE domain_id = ?',
    )
    .get(domainId);
  if (!row || Date.parse(row.expires_at) < now.getTime()) {
    throw new ServiceError(
      404,
      'not_found',
      'No DNS check result stored in the last 7 days; run POST /domains/{domain_id}/check-dns.',
    );
  }
  return JSON.parse(row.result) as Record<string, unknown>;
}
