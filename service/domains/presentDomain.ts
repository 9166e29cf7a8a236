/**
 * The public shape of a domain (schema `Domain`). Shared by GET /me/domains (H4) and the domain operations
 * (S1): select with DOMAIN_SELECT (alias `d`, joined with its group) and map rows with presentDomain.
 */
import type { DomainRow } from './domainRow.ts';

/** A domain row with its group's name. */
export interface DomainListRow extends DomainRow {
  group_name: string | null;
}

/** `SELECT … FROM domains d LEFT JOIN domain_groups g` — append WHERE/ORDER/LIMIT. */
export const DOMAIN_SELECT =
  'SELECT d.*, g.name AS group_name FROM domains d LEFT JOIN domain_groups g ON g.id = d.group_id';

/** Domain row → API object. */
export function presentDomain(row: DomainListRow): Record<string, unknown> {
  const protocols = {
    dmarc: row.dmarc_verified === 1,
    spf: row.spf_verified === 1,
    mta_sts: row.mta_sts_verified === 1,
    tls_rpt: row.tls_rpt_verified === 1,
    bimi: row.bimi_verified === 1,
  };
  return {
    id: row.id,
    fqdn: row.fqdn,
    parent_domain_id: row.parent_domain_id,
    group_id: row.group_id,
    group_name: row.group_name,
    status: row.status,
    onboarding_status: row.onboarding_status,
    verified: Object.values(protocols).every(Boolean),
    protocols,
    dns_checked_at: row.dns_checked_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
