/**
 * Deleting a domain (DELETE /domains/{id}): "the domain and related hosted records". Rows that hang off the
 * domain go with it through ON DELETE CASCADE in their tables; the hosted records the service publishes in
 * its own DNS zone (service/hosted/serviceDns.ts) are not rows of the domain, so they are withdrawn here
 * first — unless another team still has a domain of the same name, whose records share those names.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { PROTOCOLS } from '../../shared/email-auth/protocols.ts';
import { hostedRecordName, publishHostedTxt } from '../hosted/serviceDns.ts';
import type { DomainRow } from '../domains/domainRow.ts';

/** Withdraws the domain's hosted records and deletes the domain (one transaction). */
export function deleteDomain(db: ServiceDb, domain: DomainRow, now: Date): void {
  db.transaction(() => {
    const sameNameElsewhere = db
      .prepare<[string, number], { id: number }>('SELECT id FROM domains WHERE fqdn = ? AND id <> ? LIMIT 1')
      .get(domain.fqdn, domain.id);
    if (!sameNameElsewhere) {
      const bimi = db
        .prepare<[number], { selector: string }>('SELECT selector FROM bimi_configs WHERE domain_id = ?')
        .get(domain.id);
      for (const protocol of PROTOCOLS) {
        publishHostedTxt(db, hostedRecordName(protocol, domain.fqdn, bimi?.selector), null, now);
      }
    }
    db.prepare('DELETE FROM domains WHERE id = ?').run(domain.id);
  })();
}
