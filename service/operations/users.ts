/**
 * Team users: list, invite, read, update, delete, enable/disable, change role, enforce 2FA, re-invite and
 * domain access. Every one of them is owner-only, reads included (the spec heads the section "Team users (team
 * owner required)"; the document marks them x-owner-only, the pipeline checks it). Users of another team answer 404.
 *
 * State of a member (`status`): invited → enabled once the invitation is accepted; the owner may disable
 * and re-enable anyone but the team owner; re-enabling an invited user makes it invited again.
 */
import type { OperationHandlers, ServiceContext } from '../http/operation.ts';
import { requireAuth } from '../http/requireAuth.ts';
import { validationError } from '../http/serviceError.ts';
import { assignableRoleFromBody } from '../team/roles.ts';
import {
  invitationPending,
  listTeamUsers,
  presentTeamUser,
  requireTeamUser,
  seesAllDomains,
} from '../team/teamUser.ts';
import { createInvitedUser, defaultNameFor, resendInvitation } from '../team/invitations.ts';
import { requireTeamDomainIds, setDomainAccess, visibleDomainsOf } from '../team/domainAccess.ts';
import {
  normalizeEmail,
  refuseAccessChangeForFullAccess,
  refuseAllDomainsWithList,
  refuseOwner,
  requireUnusedEmail,
} from '../team/memberRules.ts';

interface InviteBody {
  email: string;
  name?: string;
  role_id: number;
  all_domains?: boolean;
  domain_ids?: number[];
  send_invite?: boolean;
}

interface UpdateBody {
  name?: string;
  email?: string;
  all_domains?: boolean;
  domain_ids?: number[];
}

function presentUser(ctx: ServiceContext, teamId: number, userId: number) {
  return presentTeamUser(requireTeamUser(ctx.db, teamId, userId));
}

function touch(ctx: ServiceContext, userId: number, set: string, ...values: unknown[]): void {
  ctx.db
    .prepare(`UPDATE users SET ${set}, updated_at = ? WHERE id = ?`)
    .run(...values, ctx.clock().toISOString(), userId);
}

export const handlers: OperationHandlers = {
  listUsers: (req, ctx) => ({ data: listTeamUsers(ctx.db, requireAuth(req).teamId).map(presentTeamUser) }),

  inviteUser: (req, ctx) => {
    const auth = requireAuth(req);
    const body = req.body as InviteBody;
    const email = normalizeEmail(body.email);
    const role = assignableRoleFromBody(ctx.db, body.role_id);
    const name = body.name?.trim() || defaultNameFor(email);
    refuseAllDomainsWithList(body.all_domains, body.domain_ids);
    const now = ctx.clock();
    const userId = ctx.db.transaction(() => {
      requireUnusedEmail(ctx.db, auth.teamId, email);
      requireTeamDomainIds(ctx.db, auth.teamId, body.domain_ids ?? []);
      const id = createInvitedUser(ctx.db, {
        teamId: auth.teamId,
        invitedBy: auth.userId,
        email,
        name,
        roleId: role.id,
        sendInvite: body.send_invite !== false,
        now,
      });
      setDomainAccess(
        ctx.db,
        id,
        { allDomains: body.all_domains === true, domainIds: body.domain_ids ?? [] },
        now,
      );
      return id;
    })();
    return { status: 201, data: presentUser(ctx, auth.teamId, userId) };
  },

  getUser: (req, ctx) => ({ data: presentUser(ctx, requireAuth(req).teamId, req.params.user_id as number) }),

  updateUser: (req, ctx) => {
    const auth = requireAuth(req);
    const body = req.body as UpdateBody;
    const user = requireTeamUser(ctx.db, auth.teamId, req.params.user_id as number);
    const accessGiven = body.all_domains !== undefined || body.domain_ids !== undefined;
    if (accessGiven) {
      refuseAccessChangeForFullAccess(user);
      refuseAllDomainsWithList(body.all_domains, body.domain_ids);
    }
    const email = body.email === undefined ? undefined : normalizeEmail(body.email);
    const name = body.name?.trim();
    if (name === '') throw validationError([{ field: 'body.name', message: 'must not be blank' }]);
    const now = ctx.clock();
    ctx.db.transaction(() => {
      if (email !== undefined) requireUnusedEmail(ctx.db, auth.teamId, email, user.id);
      if (body.domain_ids) requireTeamDomainIds(ctx.db, auth.teamId, body.domain_ids);
      ctx.db
        .prepare('UPDATE users SET name = ?, email = ?, updated_at = ? WHERE id = ?')
        .run(name ?? user.name, email ?? user.email, now.toISOString(), user.id);
      if (accessGiven) {
        // all_domains alone keeps the list; all_domains false with a list narrows to exactly that list.
        setDomainAccess(
          ctx.db,
          user.id,
          { allDomains: body.all_domains ?? user.all_domains_grant === 1, domainIds: body.domain_ids },
          now,
        );
      }
    })();
    return { data: presentUser(ctx, auth.teamId, user.id) };
  },

  deleteUser: (req, ctx) => {
    const auth = requireAuth(req);
    const user = requireTeamUser(ctx.db, auth.teamId, req.params.user_id as number);
    refuseOwner(user, 'deleted');
    // Tokens, domain grants and the invitation go with the user (ON DELETE CASCADE).
    ctx.db.prepare('DELETE FROM users WHERE id = ?').run(user.id);
    return { data: { deleted: true, id: user.id } };
  },

  setUserStatus: (req, ctx) => {
    const auth = requireAuth(req);
    const { enabled } = req.body as { enabled: boolean };
    const user = requireTeamUser(ctx.db, auth.teamId, req.params.user_id as number);
    if (!enabled) {
      refuseOwner(user, 'disabled');
      if (user.status !== 'disabled') touch(ctx, user.id, "status = 'disabled'");
    } else if (user.status === 'disabled') {
      touch(ctx, user.id, 'status = ?', invitationPending(user) ? 'invited' : 'enabled');
    }
    return { data: presentUser(ctx, auth.teamId, user.id) };
  },

  setUserRole: (req, ctx) => {
    const auth = requireAuth(req);
    const user = requireTeamUser(ctx.db, auth.teamId, req.params.user_id as number);
    refuseOwner(user, 'given another role');
    const role = assignableRoleFromBody(ctx.db, (req.body as { role_id: number }).role_id);
    if (role.id !== user.role_id) touch(ctx, user.id, 'role_id = ?', role.id);
    return { data: presentUser(ctx, auth.teamId, user.id) };
  },

  setUserEnforce2fa: (req, ctx) => {
    const auth = requireAuth(req);
    const { enabled } = req.body as { enabled: boolean };
    const user = requireTeamUser(ctx.db, auth.teamId, req.params.user_id as number);
    if ((user.enforce_2fa === 1) !== enabled) touch(ctx, user.id, 'enforce_2fa = ?', enabled ? 1 : 0);
    return { data: presentUser(ctx, auth.teamId, user.id) };
  },

  reinviteUser: (req, ctx) => {
    const auth = requireAuth(req);
    const user = requireTeamUser(ctx.db, auth.teamId, req.params.user_id as number);
    if (user.status !== 'invited') {
      const why =
        user.status === 'disabled'
          ? 'is disabled; enable the user first'
          : 'has no pending invitation (the user already joined)';
      const message = `${user.email} ${why}`;
      throw validationError([{ field: 'path.user_id', message }], `Cannot re-invite: ${message}.`);
    }
    resendInvitation(ctx.db, user.id, ctx.clock());
    return { data: { success: true, message: `Invitation sent again to ${user.email}.` } };
  },

  listUserDomains: (req, ctx) => {
    const auth = requireAuth(req);
    const user = requireTeamUser(ctx.db, auth.teamId, req.params.user_id as number);
    return {
      data: {
        user_id: user.id,
        all_domains: seesAllDomains(user),
        domains: visibleDomainsOf(ctx.db, auth.teamId, user.id),
      },
    };
  },
};
