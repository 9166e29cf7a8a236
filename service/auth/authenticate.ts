/**
 * Steps 1–4 of the pipeline's check order: token present → token valid → account api_access →
 * eligible plan. Scope and owner checks (steps 6–7) are in ./authorize.ts; the rate limit (step 5) sits
 * between them in the pipeline.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import type { AuthContext } from '../http/operation.ts';
import { ServiceError } from '../http/serviceError.ts';
import { findTokenBySecret, isTokenActive, tokenScopes } from './tokenStore.ts';

/** Plans whose accounts may use the API (spec: Comply and trial are not eligible). */
export const ELIGIBLE_PLANS: readonly string[] = ['protect', 'suite'];

/** A valid token's identity plus the account settings checked next. */
export interface ResolvedToken {
  auth: AuthContext;
  team: { id: number; plan: string; apiAccess: boolean };
}

interface TokenIdentityRow {
  token_id: number;
  user_id: number;
  team_id: number;
  is_owner: number;
  plan: string;
  api_access: number;
}

/** Steps 1–2: resolves the X-Api-Token header value, or throws 401 missing_api_token / invalid_api_token. */
export function resolveToken(db: ServiceDb, headerValue: string | undefined, now: Date): ResolvedToken {
  const secret = headerValue?.trim();
  if (!secret) {
    throw new ServiceError(401, 'missing_api_token', 'The X-Api-Token header is required.');
  }
  const row = findTokenBySecret(db, secret);
  if (!row || !isTokenActive(row, now)) {
    // One message for unknown, revoked and expired: the caller learns nothing about other tokens.
    throw new ServiceError(401, 'invalid_api_token', 'The API token is unknown, revoked or expired.');
  }
  const identity = db
    .prepare<[number], TokenIdentityRow>(
      `SELECT t.id AS token_id, u.id AS user_id, u.team_id, u.is_owner, tm.plan, tm.api_access
       FROM api_tokens t JOIN users u ON u.id = t.user_id JOIN teams tm ON tm.id = u.team_id
       WHERE t.id = ? AND u.status = 'enabled'`,
    )
    .get(row.id);
  if (!identity) {
    // The token's user is disabled (or only invited): its tokens stop working.
    throw new ServiceError(401, 'invalid_api_token', 'The API token is unknown, revoked or expired.');
  }
  return {
    auth: {
      tokenId: row.id,
      tokenName: row.name,
      userId: identity.user_id,
      teamId: identity.team_id,
      isOwner: identity.is_owner === 1,
      scopes: tokenScopes(row),
    },
    team: { id: identity.team_id, plan: identity.plan, apiAccess: identity.api_access === 1 },
  };
}

/** Steps 3–4: 403 api_access_disabled, then 403 api_plan_not_eligible. */
export function checkAccount(team: ResolvedToken['team']): void {
  if (!team.apiAccess) {
    throw new ServiceError(403, 'api_access_disabled', 'API access is disabled for this account.');
  }
  if (!ELIGIBLE_PLANS.includes(team.plan)) {
    throw new ServiceError(
      403,
      'api_plan_not_eligible',
      `The ${team.plan} plan does not include API access; the Protect and Suite plans do.`,
    );
  }
}

/** Records the use of a token (last_used_at). */
export function touchToken(db: ServiceDb, tokenId: number, now: Date): void {
  db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?').run(now.toISOString(), tokenId);
}
