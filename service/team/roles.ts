/**
 * The role catalogue (table `roles`, 001_core.sql) as the API shows it: only assignable roles exist for
 * GET /roles and can be given through POST /users or PATCH /users/{id}/role; Owner, Admin and Editor are not.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { notFound, validationError } from '../http/serviceError.ts';

/** A row of `roles`. */
export interface RoleRow {
  id: number;
  name: string;
  description: string;
  assignable: number;
  permissions: string;
}

/** Role row → the document's `Role`. */
export function presentRole(row: RoleRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    permissions: JSON.parse(row.permissions) as string[],
  };
}

/** Every assignable role, by id. */
export function listAssignableRoles(db: ServiceDb): RoleRow[] {
  return db.prepare<[], RoleRow>('SELECT * FROM roles WHERE assignable = 1 ORDER BY id').all();
}

/** The assignable role `roleId`, or 404 not_found (unknown and non-assignable roles alike). */
export function requireAssignableRole(db: ServiceDb, roleId: number): RoleRow {
  const row = db
    .prepare<[number], RoleRow>('SELECT * FROM roles WHERE id = ? AND assignable = 1')
    .get(roleId);
  if (!row) throw notFound('Role');
  return row;
}

/** The assignable role named by a request body's `role_id`, or 422 on `body.role_id` saying why not. */
export function assignableRoleFromBody(db: ServiceDb, roleId: number): RoleRow {
  const row = db.prepare<[number], RoleRow>('SELECT * FROM roles WHERE id = ?').get(roleId);
  if (row?.assignable === 1) return row;
  const names = listAssignableRoles(db)
    .map((r) => `${r.id} (${r.name})`)
    .join(', ');
  const message = row
    ? `role ${row.name} cannot be assigned through the API; assignable roles: ${names}`
    : `no role has id ${roleId}; assignable roles: ${names}`;
  throw validationError([{ field: 'body.role_id', message }], `Invalid request: body.role_id ${message}.`);
}
