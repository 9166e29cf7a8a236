/**
 * Domain groups of a team (`domain_groups`, 001_core.sql): the document's `DomainGroup` with its domain
 * count, name uniqueness, and membership. A domain is in at most one group (domains.group_id); deleting a
 * group or removing a member ungroups the domains, never deletes them.
 */
import type { AuthContext } from '../http/operation.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { notFound, validationError } from '../http/serviceError.ts';
import { VISIBLE_DOMAIN_CONDITION } from '../domains/visibility.ts';

/** Values a group's status can take ("active" is the spec's; the others are ours). */
export const GROUP_STATUSES = ['active', 'inactive', 'archived'] as const;

/** A group row with the number of its member domains the caller can see. */
export interface GroupRow {
  id: number;
  team_id: number;
  name: string;
  status: string;
  created_at: string;
  updated_at: string;
  domains_count: number;
}

// Counts only domains the caller sees, so a member's counts agree with the member lists it can read.
const SELECT_GROUP = `
  SELECT g.*, (SELECT COUNT(*) FROM domains d WHERE d.group_id = g.id AND ${VISIBLE_DOMAIN_CONDITION}) AS domains_count
  FROM domain_groups g`;

/** Row → the document's `DomainGroup`. */
export function presentGroup(row: GroupRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    domains_count: row.domains_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Every group of the caller's team, by name. */
export function listGroups(db: ServiceDb, auth: AuthContext): GroupRow[] {
  return db
    .prepare<{ teamId: number; userId: number }, GroupRow>(
      `${SELECT_GROUP} WHERE g.team_id = @teamId ORDER BY g.name COLLATE NOCASE, g.id`,
    )
    .all({ teamId: auth.teamId, userId: auth.userId });
}

/** The group `id` of the caller's team, or 404 not_found (other teams' groups look missing). */
export function requireGroup(db: ServiceDb, auth: AuthContext, id: number): GroupRow {
  const row = db
    .prepare<{ id: number; teamId: number; userId: number }, GroupRow>(
      `${SELECT_GROUP} WHERE g.id = @id AND g.team_id = @teamId`,
    )
    .get({ id, teamId: auth.teamId, userId: auth.userId });
  if (!row) throw notFound('Domain group');
  return row;
}

/** The trimmed name, or 422 on body.name when blank or already used by another group of the team. */
export function checkGroupName(db: ServiceDb, teamId: number, raw: string, exceptId = 0): string {
  const name = raw.trim();
  if (name === '') throw validationError([{ field: 'body.name', message: 'must not be blank' }]);
  const taken = db
    .prepare<[number, string, number], { id: number }>(
      'SELECT id FROM domain_groups WHERE team_id = ? AND name = ? COLLATE NOCASE AND id <> ?',
    )
    .get(teamId, name, exceptId);
  if (taken) {
    const message = `a group named ${name} already exists in this team`;
    throw validationError([{ field: 'body.name', message }], `Invalid request: ${message}.`);
  }
  return name;
}

/** 422 on body.status unless it is one of GROUP_STATUSES. */
export function checkGroupStatus(status: string): string {
  if (!(GROUP_STATUSES as readonly string[]).includes(status)) {
    const message = `must be one of ${GROUP_STATUSES.join(', ')}`;
    throw validationError([{ field: 'body.status', message }], `Invalid request: body.status ${message}.`);
  }
  return status;
}
