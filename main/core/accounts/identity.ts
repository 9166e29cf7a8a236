import { z } from 'zod';
import type { AccountIdentity } from '../../../shared/bridge/results.ts';

const authMeSchema = z.looseObject({
  user: z.looseObject({ name: z.string().nullish(), email: z.string().nullish() }).nullish(),
  team: z.looseObject({ name: z.string().nullish(), plan: z.string().nullish() }).nullish(),
  is_team_owner: z.boolean().nullish(),
  token: z
    .looseObject({
      name: z.string().nullish(),
      scopes: z.array(z.string()).nullish(),
      expires_at: z.string().nullish(),
    })
    .nullish(),
});

const positiveId = z.number().int().positive();
const instant = z.string().refine((v) => Number.isFinite(Date.parse(v)), 'not a date-time');

/**
 * What a new account's GET /auth/me must show. The shape is x-inferred, so only what names the account
 * (who, which team) and what the engine relies on (the token's scopes) is required; every other field the
 * document describes may be missing, but when present it must have its documented type — an answer with
 * `data: null`, nulls everywhere or strings for numbers is not an identity.
 */
const validIdentitySchema = z.looseObject({
  user: z.looseObject({
    id: positiveId.optional(),
    name: z.string().optional(),
    email: z.string().regex(/^[^@\s]+@[^@\s]+$/, 'not an email address'),
  }),
  team: z.looseObject({
    id: positiveId.optional(),
    name: z.string().min(1),
    plan: z.string().optional(),
  }),
  is_team_owner: z.boolean().optional(),
  token: z.looseObject({
    id: positiveId.optional(),
    name: z.string().optional(),
    scopes: z.array(z.string().min(1)),
    expires_at: instant.nullable().optional(),
  }),
});

/** The identity in GET /auth/me's data when it is a valid one (see validIdentitySchema), else null. */
export function parseIdentity(data: unknown): AccountIdentity | null {
  return validIdentitySchema.safeParse(data).success ? readIdentity(data) : null;
}

/** Reads the identity out of GET /auth/me's data; unknown or missing fields become null. */
export function readIdentity(data: unknown): AccountIdentity {
  const parsed = authMeSchema.safeParse(data);
  const me = parsed.success ? parsed.data : {};
  return {
    userName: me.user?.name ?? null,
    userEmail: me.user?.email ?? null,
    teamName: me.team?.name ?? null,
    plan: me.team?.plan ?? null,
    isTeamOwner: me.is_team_owner ?? null,
    tokenName: me.token?.name ?? null,
    scopes: me.token?.scopes ?? [],
    tokenExpiresAt: me.token?.expires_at ?? null,
  };
}
