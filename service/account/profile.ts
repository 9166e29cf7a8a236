/**
 * The token owner's profile and team as the API shows them (schemas Profile and Team), read in one query.
 * Used by /me*, /auth/me and /account.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { notFound } from '../http/serviceError.ts';

/** A user joined with its role and team. */
export interface ProfileRow {
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
  mfa_methods: string;
  created_at: string;
  updated_at: string;
  team_name: string;
  plan: string;
  api_access: number;
  team_created_at: string;
  team_owner_id: number | null;
}

/** Loads the profile of `userId`, or 404. */
export function loadProfile(db: ServiceDb, userId: number): ProfileRow {
  const row = db
    .prepare<[number], ProfileRow>(
      `SELECT u.*, r.name AS role_name, r.permissions AS role_permissions,
              t.name AS team_name, t.plan, t.api_access, t.created_at AS team_created_at,
              (SELECT o.id FROM users o WHERE o.team_id = t.id AND o.is_owner = 1) AS team_owner_id
       FROM users u JOIN roles r ON r.id = u.role_id JOIN teams t ON t.id = u.team_id WHERE u.id = ?`,
    )
    .get(userId);
  if (!row) throw notFound('User');
  return row;
}

/** Schema Profile. */
export function presentProfile(row: ProfileRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    language: row.language,
    team_id: row.team_id,
    role: { id: row.role_id, name: row.role_name },
    is_team_owner: row.is_owner === 1,
    two_factor_enabled: row.mfa_enabled === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Schema Team. */
export function presentTeam(row: ProfileRow): Record<string, unknown> {
  return {
    id: row.team_id,
    name: row.team_name,
    ...(row.team_owner_id === null ? {} : { owner_user_id: row.team_owner_id }),
    plan: row.plan,
    api_access_enabled: row.api_access === 1,
    created_at: row.team_created_at,
  };
}
