/**
 * Current-user operations: GET/PATCH /me, GET /me/permissions, GET /me/domains, GET /me/security.
 *
 * Permissions = the role's permission names, adjusted by the account settings: without API access (or on a
 * plan without the API) `tokens.manage` is dropped; the team owner gets `api.write`, since the API's writes on
 * team, domain and hosted-record resources are the owner's only.
 */
import type { OperationHandlers } from '../http/operation.ts';
import { requireAuth } from '../http/requireAuth.ts';
import { pageParams } from '../http/pagination.ts';
import { ELIGIBLE_PLANS } from '../auth/authenticate.ts';
import { loadProfile, presentProfile } from '../account/profile.ts';
import { visibleDomainsPage } from '../domainOps/domainStore.ts';

export const handlers: OperationHandlers = {
  getMe: (req, ctx) => ({ data: presentProfile(loadProfile(ctx.db, requireAuth(req).userId)) }),

  updateMe: (req, ctx) => {
    const auth = requireAuth(req);
    const body = req.body as { name?: string; language?: string };
    const current = loadProfile(ctx.db, auth.userId);
    ctx.db
      .prepare('UPDATE users SET name = ?, language = ?, updated_at = ? WHERE id = ?')
      .run(
        body.name ?? current.name,
        body.language ?? current.language,
        ctx.clock().toISOString(),
        auth.userId,
      );
    return { data: presentProfile(loadProfile(ctx.db, auth.userId)) };
  },

  getMyPermissions: (req, ctx) => {
    const row = loadProfile(ctx.db, requireAuth(req).userId);
    const apiEligible = row.api_access === 1 && ELIGIBLE_PLANS.includes(row.plan);
    const permissions = (JSON.parse(row.role_permissions) as string[]).filter(
      (p) => apiEligible || p !== 'tokens.manage',
    );
    if (row.is_owner === 1) permissions.push('api.write');
    return { data: { role: row.role_name, is_team_owner: row.is_owner === 1, permissions } };
  },

  listMyDomains: (req, ctx) => visibleDomainsPage(ctx.db, requireAuth(req), pageParams(req.query)),

  getMySecurity: (req, ctx) => {
    const auth = requireAuth(req);
    const row = loadProfile(ctx.db, auth.userId);
    const passkeys = ctx.db
      .prepare<[number], { id: number; name: string; created_at: string; last_used_at: string | null }>(
        'SELECT id, name, created_at, last_used_at FROM user_passkeys WHERE user_id = ? ORDER BY id',
      )
      .all(auth.userId);
    return {
      data: {
        two_factor_enabled: row.mfa_enabled === 1,
        two_factor_methods: JSON.parse(row.mfa_methods) as string[],
        two_factor_enforced: row.enforce_2fa === 1,
        passkeys,
      },
    };
  },
};
