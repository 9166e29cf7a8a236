/** The `domains` row, its lookup for an operation, and the visibility rule of members. */
import type { ServiceContext, AuthContext } from '../http/operation.ts';
import { notFound } from '../http/serviceError.ts';

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
 * The domain `domainId` of the caller's team, or 404 not_found (missing and other-team domains look the
 * same, so ids of other accounts are not disclosed).
 */
export function requireDomain(
  ctx: Pick<ServiceContext, 'db'>,
  auth: AuthContext | null,
  domainId: number,
): DomainRow {
  const row = auth
    ? ctx.db
        .prepare<[number, number], DomainRow>('SELECT * FROM domains WHERE id = ? AND team_id = ?')
        .get(domainId, auth.teamId)
    : undefined;
  if (!row) throw notFound('Domain');
  return row;
}
