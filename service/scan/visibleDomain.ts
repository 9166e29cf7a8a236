/**
 * The domain an analytics or DNS-timeline read is about, as the caller may see it: another team's domain and,
 * for members with an assignable role, a domain not granted to them answer 404 not_found
 * (service/domains/visibility.ts).
 */
import type { AuthContext, ServiceContext } from '../http/operation.ts';
import { ServiceError, notFound } from '../http/serviceError.ts';
import type { DomainRow } from '../domains/domainRow.ts';
import { VISIBLE_DOMAIN_CONDITION } from '../domains/visibility.ts';

/** The visible domain `domainId`, or 404 not_found. */
export function requireReadableDomain(
  ctx: Pick<ServiceContext, 'db'>,
  auth: AuthContext | null,
  domainId: number,
): DomainRow {
  if (!auth) throw new ServiceError(401, 'missing_api_token', 'The X-Api-Token header is required.');
  const row = ctx.db
    .prepare<{ id: number; teamId: number; userId: number }, DomainRow>(
      `SELECT d.* FROM domains d WHERE d.id = @id AND ${VISIBLE_DOMAIN_CONDITION}`,
    )
    .get({ id: domainId, teamId: auth.teamId, userId: auth.userId });
  if (!row) throw notFound('Domain');
  return row;
}
