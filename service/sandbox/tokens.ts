/**
 * POST /_sandbox/tokens {user_id?, scopes, expires_in_days?, name?} → {token_id, plain_text, expires_at}.
 * Default user: the demo owner (owner of the first team). Unlike the API, expires_in_days may be 0
 * (an already-expired token, for tests) up to 3650.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { validationError } from '../http/serviceError.ts';
import { isKnownScope } from '../auth/scopes.ts';
import { expiryAfterDays, issueToken } from '../auth/tokenStore.ts';
import type { SandboxRoute } from './sandboxRoute.ts';

/** Id of the owner of the first team (the demo owner), if any. */
export function demoOwnerId(db: ServiceDb): number | undefined {
  return db
    .prepare<[], { id: number }>('SELECT id FROM users WHERE is_owner = 1 ORDER BY team_id, id LIMIT 1')
    .get()?.id;
}

export const routes: SandboxRoute[] = [
  {
    method: 'POST',
    path: '/tokens',
    body: {
      type: 'object',
      required: ['scopes'],
      additionalProperties: false,
      properties: {
        user_id: { type: 'integer', minimum: 1 },
        name: { type: 'string', minLength: 1, maxLength: 100 },
        scopes: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        expires_in_days: { type: 'integer', minimum: 0, maximum: 3650, default: 90 },
      },
    },
    handler: (req, ctx) => {
      const b = req.body as { user_id?: number; name?: string; scopes: string[]; expires_in_days: number };
      const unknown = b.scopes.flatMap((s, i) =>
        isKnownScope(s) ? [] : [{ field: `body.scopes[${i}]`, message: `unknown scope ${s}` }],
      );
      if (unknown.length) throw validationError(unknown);
      const userId = b.user_id ?? demoOwnerId(ctx.db);
      const user =
        userId === undefined
          ? undefined
          : ctx.db.prepare<[number], { id: number }>('SELECT id FROM users WHERE id = ?').get(userId);
      if (!user) {
        throw validationError([
          { field: 'body.user_id', message: userId === undefined ? 'no account exists yet' : 'no such user' },
        ]);
      }
      const now = ctx.clock();
      const issued = issueToken(ctx.db, {
        userId: user.id,
        name: b.name ?? 'sandbox token',
        scopes: b.scopes,
        expiresAt: expiryAfterDays(now, b.expires_in_days),
        now,
      });
      return {
        status: 201,
        data: { token_id: issued.id, plain_text: issued.plainText, expires_at: issued.row.expires_at },
      };
    },
  },
];
