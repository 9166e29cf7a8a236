/**
 * The domain an analytics or DNS-timeline read is about, as the caller may see it: another team's domain and,
 * for members with an assignable role, a domain not granted to them answer 404 not_found. A thin adapter over
 * the domain operations' requireVisibleDomain (service/domainOps/domainStore.ts), kept for the handlers that
 * call it with `(ctx, req.auth, id)`.
 */
import type { AuthContext, ServiceContext } from '../http/operation.ts';
import { requireAuth } from '../http/requireAuth.ts';
import type { DomainRow } from '../domains/domainRow.ts';
import { requireVisibleDomain } from '../domainOps/domainStore.ts';

/** The visible domain `domainId`, or 404 not_found (401 when called without an identity). */
export function requireReadableDomain(
  ctx: Pick<ServiceContext, 'db'>,
  auth: AuthContext | null,
  domainId: number,
): DomainRow {
  return requireVisibleDomain(ctx.db, requireAuth({ auth }), domainId);
}
