/**
 * Validation of the editable domain fields (POST /domains, PATCH /domains/{id}): parent domain, group,
 * status and onboarding status. Each failure is a 422 naming the body field.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { validationError } from '../http/serviceError.ts';

/** Values of `status` a domain can take. */
export const DOMAIN_STATUSES = ['active', 'inactive'] as const;
/** Values of `onboarding_status`: pending until the records are set up, completed when done. */
export const ONBOARDING_STATUSES = ['pending', 'in_progress', 'completed'] as const;

function invalid(field: string, message: string): never {
  throw validationError([{ field, message }], `Invalid request: ${field} ${message}.`);
}

/**
 * 422 on `field` unless `parentId` is another domain of the team whose name `fqdn` is a subdomain of
 * (a parent is the organisational domain above it, e.g. example.com for mail.example.com).
 */
export function requireParentDomain(
  db: ServiceDb,
  teamId: number,
  fqdn: string,
  parentId: number,
  field = 'body.parent_domain_id',
): void {
  const parent = db
    .prepare<[number, number], { id: number; fqdn: string }>(
      'SELECT id, fqdn FROM domains WHERE id = ? AND team_id = ?',
    )
    .get(parentId, teamId);
  if (!parent) invalid(field, `no domain of this team has id ${parentId}`);
  if (parent.fqdn === fqdn) invalid(field, 'a domain cannot be its own parent');
  if (!fqdn.endsWith(`.${parent.fqdn}`)) {
    invalid(field, `${fqdn} is not a subdomain of ${parent.fqdn}`);
  }
}

/** 422 on `body.group_id` unless `groupId` is a group of the team. */
export function requireTeamGroup(db: ServiceDb, teamId: number, groupId: number): void {
  const group = db
    .prepare<[number, number], { id: number }>('SELECT id FROM domain_groups WHERE id = ? AND team_id = ?')
    .get(groupId, teamId);
  if (!group) invalid('body.group_id', `no domain group of this team has id ${groupId}`);
}

/** 422 on `field` unless `value` is one of `allowed`. */
export function requireOneOf(field: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value)) invalid(field, `must be one of ${allowed.join(', ')}`);
}
