/**
 * Current-user operations: GET/PATCH /me, GET /me/permissions, GET /me/domains, GET /me/security.
 *
 * Permissions = the role's permission list, narrowed by the account settings: without API access (or on a
 * plan without the API) `tokens:manage` is dropped, and the API's writes on team, domain and hosted-record
 * resources are the owner's only (`api_writes`).
 */
import type { AuthContext, OperationHandlers, ServiceContext } from '../http/operation.ts';
import { ServiceError, notFound } from '../http/serviceError.ts';
import { pageParams, paginated } from '../http/pagination.ts';
import { ELIGIBLE_PLANS } from '../auth/authenticate.ts';
import { VISIBLE_DOMAIN_CONDITION } from '../domains/visibility.ts';
import { presentDomain } from '../domains/presentDomain.ts';
import type { DomainRow } from '../domains/domainRow.ts';

interface ProfileRow {
  id: number;
  team_id: number;
  name: string;
  email: string;
  language: string;
  role_id: number;
  role_name: string;
  role_permissions: string;
  status: string;
  is_owner: number;
  enforce_2fa: number;
  mfa_enabled: number;
  mfa_method: string | null;
  passkey_count: number;
  last_login_at: string | null;
  created_at: string;
  updated_at: string;
  team_name: string;
  plan: string;
  api_access: number;
}

function authOf(auth: AuthContext | null): AuthContext {
  if (!auth) throw new ServiceError(401, 'missing_api_token', 'The X-Api-Token header is required.');
  return auth;
}

function profileRow(ctx: ServiceContext, userId: number): ProfileRow {
  const row = ctx.db
    .prepare<[number], ProfileRow>(
      `SELECT u.*, r.name AS role_name, r.permissions AS role_permissions,
              t.name AS team_name, t.plan, t.api_access
       FROM users u JOIN roles r ON r.id = u.role_id JOIN teams t ON t.id = u.team_id WHERE u.id = ?`,
    )
    .get(userId);
  if (!row) throw notFound('User');
  return row;
}

function presentProfile(row: ProfileRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    language: row.language,
    role: { id: row.role_id, name: row.role_name },
    status: row.status,
    is_owner: row.is_owner === 1,
    team: { id: row.team_id, name: row.team_name },
    last_login_at: row.last_login_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export const handlers: OperationHandlers = {
  getMe: (req, ctx) => ({ data: presentProfile(profileRow(ctx, authOf(req.auth).userId)) }),

  updateMe: (req, ctx) => {
    const auth = authOf(req.auth);
    const body = req.body as { name?: string; language?: string };
    const current = profileRow(ctx, auth.userId);
    ctx.db
      .prepare('UPDATE users SET name = ?, language = ?, updated_at = ? WHERE id = ?')
      .run(
        body.name ?? current.name,
        body.language ?? current.language,
        ctx.clock().toISOString(),
        auth.userId,
      );
    return { data: presentProfile(profileRow(ctx, auth.userId)) };
  },

  getMyPermissions: (req, ctx) => {
    const row = profileRow(ctx, authOf(req.auth).userId);
    const apiEligible = row.api_access === 1 && ELIGIBLE_PLANS.includes(row.plan);
    const permissions = (JSON.parse(row.role_permissions) as string[]).filter(
      (p) => apiEligible || p !== 'tokens:manage',
    );
    return {
      data: {
        role: { id: row.role_id, name: row.role_name },
        is_owner: row.is_owner === 1,
        permissions,
        api_access: row.api_access === 1,
        plan: row.plan,
        api_writes: row.is_owner === 1,
      },
    };
  },

  listMyDomains: (req, ctx) => {
    const auth = authOf(req.auth);
    const page = pageParams(req.query);
    const args = { teamId: auth.teamId, userId: auth.userId };
    const total = ctx.db
      .prepare<[typeof args], { n: number }>(
        `SELECT COUNT(*) AS n FROM domains d WHERE ${VISIBLE_DOMAIN_CONDITION}`,
      )
      .get(args)!.n;
    const rows = ctx.db
      .prepare<[typeof args & { limit: number; offset: number }], DomainRow>(
        `SELECT d.* FROM domains d WHERE ${VISIBLE_DOMAIN_CONDITION}
         ORDER BY d.fqdn LIMIT @limit OFFSET @offset`,
      )
      .all({ ...args, limit: page.limit, offset: page.offset });
    return paginated(total, rows.map(presentDomain), page);
  },

  getMySecurity: (req, ctx) => {
    const row = profileRow(ctx, authOf(req.auth).userId);
    return {
      data: {
        mfa_enabled: row.mfa_enabled === 1,
        mfa_method: row.mfa_method,
        passkey_enabled: row.passkey_count > 0,
        passkey_count: row.passkey_count,
        enforce_2fa: row.enforce_2fa === 1,
      },
    };
  },
};
