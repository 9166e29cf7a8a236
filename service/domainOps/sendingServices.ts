/**
 * The catalogue of email sending services (013_sending_services.sql) and the services attached to a
 * domain (GET/PATCH /domains/{id}/services).
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { validationError } from '../http/serviceError.ts';

interface ServiceRow {
  id: number;
  name: string;
  category: string | null;
}

/** The document's `DomainServices` of a domain: attached ids and their catalogue entries, by name. */
export function attachedServices(db: ServiceDb, domainId: number): Record<string, unknown> {
  const services = db
    .prepare<[number], ServiceRow>(
      `SELECT s.id, s.name, s.category FROM domain_services ds JOIN sending_services s ON s.id = ds.service_id
       WHERE ds.domain_id = ? ORDER BY s.name`,
    )
    .all(domainId);
  return { domain_id: domainId, service_ids: services.map((s) => s.id), services };
}

/** Replaces the attached services; 422 on body.service_ids naming ids the catalogue does not hold. */
export function replaceAttachedServices(
  db: ServiceDb,
  domainId: number,
  serviceIds: number[],
  now: Date,
): void {
  const known = db.prepare<[number], { id: number }>('SELECT id FROM sending_services WHERE id = ?');
  const unknown = serviceIds.filter((id) => !known.get(id));
  if (unknown.length > 0) {
    const message = `unknown sending service id ${unknown.join(', ')}`;
    throw validationError([{ field: 'body.service_ids', message }], `Invalid request: ${message}.`);
  }
  db.transaction(() => {
    db.prepare('DELETE FROM domain_services WHERE domain_id = ?').run(domainId);
    const insert = db.prepare(
      'INSERT INTO domain_services (domain_id, service_id, attached_at) VALUES (?, ?, ?)',
    );
    for (const id of serviceIds) insert.run(domainId, id, now.toISOString());
  })();
}
