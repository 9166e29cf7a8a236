/**
 * Roles: GET /roles and GET /roles/{role_id} — assignable roles only (Owner, Admin and Editor are not). Owner-only
 * like the rest of the team users section (x-owner-only in the document).
 */
import type { OperationHandlers } from '../http/operation.ts';
import { listAssignableRoles, presentRole, requireAssignableRole } from '../team/roles.ts';

export const handlers: OperationHandlers = {
  listRoles: (_req, ctx) => ({ data: listAssignableRoles(ctx.db).map(presentRole) }),

  getRole: (req, ctx) => ({ data: presentRole(requireAssignableRole(ctx.db, req.params.role_id as number)) }),
};
