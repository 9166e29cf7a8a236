/**
 * The public shape of a domain (schema `Domain` of the document). Shared by GET /me/domains (H4) and the
 * domain operations (S1), which may extend it as the document grows.
 */
import type { DomainRow } from './domainRow.ts';

/** Domain row → API object. */
export function presentDomain(row: DomainRow): Record<string, unknown> {
  return {
    id: row.id,
    fqdn: row.fqdn,
    parent_domain_id: row.parent_domain_id,
    group_id: row.group_id,
    status: row.status,
    onboarding_status: row.onboarding_status,
    verification: {
      dmarc: row.dmarc_verified === 1,
      spf: row.spf_verified === 1,
      mta_sts: row.mta_sts_verified === 1,
      tls_rpt: row.tls_rpt_verified === 1,
      bimi: row.bimi_verified === 1,
    },
    verified_at: row.verified_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
