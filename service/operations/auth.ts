/**
 * Account and token operations: GET /auth/me and its alias GET /account, GET/POST /auth/tokens,
 * DELETE /auth/tokens/{token_id}.
 *
 * Tokens are personal: a caller lists and revokes the tokens of its own user. A new token may carry only
 * scopes the creating token holds (no minting of wider tokens); unknown scope ids → 422.
 * expires_in_days defaults to config.defaultTokenExpiryDays (90).
 */
import type { AuthContext, OperationHandlers, ServiceContext } from '../http/operation.ts';
import { ServiceError, notFound, validationError } from '../http/serviceError.ts';
import { requireAuth } from '../http/requireAuth.ts';
import { pageParams, paginated } from '../http/pagination.ts';
import { isKnownScope } from '../auth/scopes.ts';
import { expiryAfterDays, getToken, issueToken, presentToken } from '../auth/tokenStore.ts';
import type { TokenRow } from '../auth/tokenStore.ts';
import { loadProfile, presentProfile, presentTeam } from '../account/profile.ts';

/** The account (user + team) and the metadata of the token used (schema AuthMe). */
export function authMe(ctx: ServiceContext, auth: AuthContext): Record<string, unknown> {
  const profile = loadProfile(ctx.db, auth.userId);
  const token = getToken(ctx.db, auth.tokenId);
  if (!token) throw notFound('Token');
  return {
    user: presentProfile(profile),
    team: presentTeam(profile),
    is_team_owner: profile.is_owner === 1,
    token: presentToken(token),
  };
}

export const handlers: OperationHandlers = {
  getAuthMe: (req, ctx) => ({ data: authMe(ctx, requireAuth(req)) }),

  getAccount: (req, ctx) => ({ data: authMe(ctx, requireAuth(req)) }),

  listTokens: (req, ctx) => {
    const auth = requireAuth(req);
    const page = pageParams(req.query);
    const now = ctx.clock().toISOString();
    const where = 'user_id = ? AND revoked_at IS NULL AND expires_at > ?';
    const total = ctx.db
      .prepare<[number, string], { n: number }>(`SELECT COUNT(*) AS n FROM api_tokens WHERE ${where}`)
      .get(auth.userId, now)!.n;
    const rows = ctx.db
      .prepare<[number, string, number, number], TokenRow>(
        `SELECT * FROM api_tokens WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      )
      .all(auth.userId, now, page.limit, page.offset);
    return paginated(total, rows.map(presentToken), page);
  },

  createToken: (req, ctx) => {
    const auth = requireAuth(req);
    const body = req.body as { name: string; scopes: string[]; expires_in_days?: number };
    const unknown = body.scopes
      .map((scope, i) => ({ scope, i }))
      .filter(({ scope }) => !isKnownScope(scope))
      .map(({ scope, i }) => ({ field: `body.scopes[${i}]`, message: `unknown scope ${scope}` }));
    if (unknown.length > 0) throw validationError(unknown, 'Unknown scope: see GET /auth/scopes.');
    const wider = body.scopes.filter((s) => !auth.scopes.includes(s));
    if (wider.length > 0) {
      throw new ServiceError(
        403,
        'insufficient_scope',
        `A token can only grant scopes it holds itself; missing ${wider.join(', ')}.`,
      );
    }
    const now = ctx.clock();
    const days = body.expires_in_days ?? ctx.config.defaultTokenExpiryDays;
    const issued = issueToken(ctx.db, {
      userId: auth.userId,
      name: body.name,
      scopes: body.scopes,
      expiresAt: expiryAfterDays(now, days),
      now,
    });
    return { status: 201, data: { ...presentToken(issued.row), plain_text: issued.plainText } };
  },

  revokeToken: (req, ctx) => {
    const auth = requireAuth(req);
    const id = req.params.token_id as number;
    const row = getToken(ctx.db, id);
    if (!row || row.user_id !== auth.userId || row.revoked_at !== null) throw notFound('Token');
    ctx.db.prepare('UPDATE api_tokens SET revoked_at = ? WHERE id = ?').run(ctx.clock().toISOString(), id);
    return { data: { id, deleted: true } };
  },
};
