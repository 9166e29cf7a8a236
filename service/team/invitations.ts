/**
 * Invitations of team members. The reference service sends no real email: "sending" the invitation
 * records when it went out (`invite_sent_at`) and how many times (`invites_sent`), which is what a client
 * can observe through the API.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';

/** What inviting a user needs; the email is already normalised and checked for duplicates. */
export interface NewInvitation {
  teamId: number;
  invitedBy: number;
  email: string;
  name: string;
  roleId: number;
  sendInvite: boolean;
  now: Date;
}

/** Creates the invited user (status `invited`) and its invitation; returns the new user id. */
export function createInvitedUser(db: ServiceDb, inv: NewInvitation): number {
  const at = inv.now.toISOString();
  const userId = Number(
    db
      .prepare(
        `INSERT INTO users (team_id, name, email, role_id, status, is_owner, invited_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'invited', 0, ?, ?, ?)`,
      )
      .run(inv.teamId, inv.name, inv.email, inv.roleId, at, at, at).lastInsertRowid,
  );
  db.prepare(
    'INSERT INTO user_invitations (user_id, invited_by, invite_sent_at, invites_sent) VALUES (?, ?, ?, ?)',
  ).run(userId, inv.invitedBy, inv.sendInvite ? at : null, inv.sendInvite ? 1 : 0);
  return userId;
}

/** Sends the invitation email again: a new invite_sent_at and one more in invites_sent. */
export function resendInvitation(db: ServiceDb, userId: number, now: Date): void {
  db.prepare(
    'UPDATE user_invitations SET invite_sent_at = ?, invites_sent = invites_sent + 1 WHERE user_id = ?',
  ).run(now.toISOString(), userId);
}

/** The display name given to an invited user without one: the local part of the address. */
export function defaultNameFor(email: string): string {
  return (email.split('@')[0] ?? email).slice(0, 50);
}
