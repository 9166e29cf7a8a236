/** The `domains` row, its lookup for an operation, and the visibility rule of members. */
import type { ServiceContext, AuthContext } from '../http/operation.ts';
import { notFound } from '../http/serviceError.ts';
import { VISIBLE_DOMAIN_CONDITION } from './visibility.ts';

/** A row of the `domains` table (001_core.sql). */
export interface DomainRow {
  id: number;
  team_id: number;
  fqdn: string;
  parent_domain_id: number | null;
  group_id: number | null;
  status: string;
  onboarding_status: string;
  dmarc_verified: number;
  spf_verified: number;
  mta_sts_verified: number;
  tls_rpt_verified: number;
  bimi_verified: number;
  verified_at: string | null;
  dns_checked_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The domain `domainId` if the caller may see it (./visibility.ts: of the caller's team and, for members with
 * an assignable role, granted to them), or 404 not_found (missing, other-team and not-granted domains look the
 * same, so ids of other accounts are not disclosed).
 */
export function requireDomain(
  ctx: Pick<ServiceContext, 'db'>,
  auth: AuthContext | null,
  domainId: number,
): DomainRow {
  const row = auth
    ? ctx.db
        .prepare<{ id: number; teamId: number; userId: number }, DomainRow>(
          `SELECT d.* FROM domains d WHERE d.id = @id AND ${VISIBLE_DOMAIN_CONDITION}`,
        )
        .get({ id: domainId, teamId: auth.teamId, userId: auth.userId })
    : undefined;
  if (!row) throw notFound('Domain');
  return row;
}
