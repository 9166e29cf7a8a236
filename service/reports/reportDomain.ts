/**
 * Which domain of the service an incoming report is about. Reports arrive at the service's reporting address
 * without an account attached, so the domain the report names (DMARC policy_published/domain, TLS-RPT
 * policy-domain) decides; a caller that knows the domain (the sandbox upload's `domain_id`) names it, and must
 * when several teams registered the same name.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { prepared } from '../../shared/sqlite/preparedStatements.ts';
import type { DomainRow } from '../domains/domainRow.ts';
import { notFound, validationError } from '../http/serviceError.ts';
import { normalizeDomain } from '../../shared/email-auth/protocols.ts';

/** Domains registered under `fqdn`, of every team. */
function domainsNamed(db: ServiceDb, fqdn: string): DomainRow[] {
  return prepared<[string], DomainRow>(db, 'SELECT * FROM domains WHERE fqdn = ? ORDER BY id').all(fqdn);
}

/**
 * The domain a report naming `names` (in order of preference) belongs to: the first name registered in the
 * service, or the domain `domainId` when given (it must be one of the names).
 * 404 not_found for an unknown domainId; 422 validation_error on `field` when no name is registered, when
 * domainId is another domain, or when several teams registered the name and no domainId says which.
 */
export function reportDomain(
  db: ServiceDb,
  names: readonly string[],
  options: { domainId?: number; field: string; what: string },
): DomainRow {
  const wanted = [...new Set(names.map(normalizeDomain))];
  const listed = wanted.join(', ');
  if (options.domainId !== undefined) {
    const row = prepared<[number], DomainRow>(db, 'SELECT * FROM domains WHERE id = ?').get(options.domainId);
    if (!row) throw notFound('Domain');
    if (!wanted.includes(row.fqdn)) {
      throw validationError(
        [{ field: options.field, message: `names ${listed}, not ${row.fqdn}` }],
        `The ${options.what} is about ${listed}, not about domain ${row.id} (${row.fqdn}).`,
      );
    }
    return row;
  }
  for (const fqdn of wanted) {
    const rows = domainsNamed(db, fqdn);
    if (rows.length > 1) {
      throw validationError(
        [{ field: 'query.domain_id', message: `${fqdn} is registered by ${rows.length} teams; name one` }],
        `Several teams registered ${fqdn}; pass domain_id to say which one the ${options.what} is for.`,
      );
    }
    if (rows[0]) return rows[0];
  }
  throw validationError(
    [{ field: options.field, message: `${listed} is not a domain of any team in the service` }],
    `The ${options.what} is about ${listed}, which is not a domain of any team in the service.`,
  );
}
