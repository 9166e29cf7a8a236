/**
 * A team member as the user operations read it: the `users` row joined with its role, its invitation
 * (010_team_users.sql) and its all-domains grant. Members of another team are not found (404).
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { notFound } from '../http/serviceError.ts';

/** `users` row plus role, invitation and access columns. */
export interface TeamUserRow {
  id: number;
  team_id: number;
  name: string;
  email: string;
  role_id: number;
  role_name: string;
  role_assignable: number;
  status: 'enabled' | 'disabled' | 'invited';
  is_owner: number;
  enforce_2fa: number;
  mfa_enabled: number;
  invited_at: string | null;
  last_login_at: string | null;
  created_at: string;
  updated_at: string;
  /** 1 when an invitation row exists (the user was invited through the API). */
  has_invitation: number;
  invite_sent_at: string | null;
  invites_sent: number | null;
  accepted_at: string | null;
  /** 1 when granted every domain explicitly (user_all_domains). */
  all_domains_grant: number;
}

const SELECT_TEAM_USER = `
  SELECT u.id, u.team_id, u.name, u.email, u.role_id, r.name AS role_name, r.assignable AS role_assignable,
         u.status, u.is_owner, u.enforce_2fa, u.mfa_enabled, u.invited_at, u.last_login_at,
         u.created_at, u.updated_at,
         (i.user_id IS NOT NULL) AS has_invitation, i.invite_sent_at, i.invites_sent, i.accepted_at,
         (a.user_id IS NOT NULL) AS all_domains_grant
  FROM users u
  JOIN roles r ON r.id = u.role_id
  LEFT JOIN user_invitations i ON i.user_id = u.id
  LEFT JOIN user_all_domains a ON a.user_id = u.id`;

/** Every user of the team, owner first, then by id. */
export function listTeamUsers(db: ServiceDb, teamId: number): TeamUserRow[] {
  return db
    .prepare<[number], TeamUserRow>(`${SELECT_TEAM_USER} WHERE u.team_id = ? ORDER BY u.is_owner DESC, u.id`)
    .all(teamId);
}

/** The user `userId` of team `teamId`, or 404 not_found (another team's users look missing). */
export function requireTeamUser(db: ServiceDb, teamId: number, userId: number): TeamUserRow {
  const row = db
    .prepare<[number, number], TeamUserRow>(`${SELECT_TEAM_USER} WHERE u.id = ? AND u.team_id = ?`)
    .get(userId, teamId);
  if (!row) throw notFound('User');
  return row;
}

/** True when the user sees every domain of the team: owner, a non-assignable role, or an explicit grant. */
export function seesAllDomains(row: TeamUserRow): boolean {
  return row.is_owner === 1 || row.role_assignable === 0 || row.all_domains_grant === 1;
}

/** The invitation is pending: the user was invited and has not accepted yet. */
export function invitationPending(row: TeamUserRow): boolean {
  return row.has_invitation === 1 && row.accepted_at === null;
}

/** Row → the document's `User`. */
export function presentTeamUser(row: TeamUserRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: { id: row.role_id, name: row.role_name },
    // An invited user has not been disabled: `enabled` is the owner's switch, `status` the full state.
    enabled: row.status !== 'disabled',
    status: row.status,
    enforce_2fa: row.enforce_2fa === 1,
    two_factor_enabled: row.mfa_enabled === 1,
    is_team_owner: row.is_owner === 1,
    invitation_status: invitationPending(row) ? 'pending' : 'accepted',
    invite_sent_at: row.invite_sent_at,
    all_domains: seesAllDomains(row),
    last_login_at: row.last_login_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
