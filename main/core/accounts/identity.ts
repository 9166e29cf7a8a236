import { z } from 'zod';

/** Who a token belongs to, from GET /auth/me (all but the scopes are optional: the shape is inferred). */
export interface AccountIdentity {
  userName: string | null;
  userEmail: string | null;
  teamName: string | null;
  plan: string | null;
  isTeamOwner: boolean | null;
  tokenName: string | null;
  scopes: string[];
  tokenExpiresAt: string | null;
}

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
