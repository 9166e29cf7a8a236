/**
 * Domain groups: list with domain counts, create, read, edit, delete (members become ungrouped, not
 * deleted), member list, add a member, remove a member (it becomes ungrouped). Writes are owner-only.
 * A domain of another team cannot be added: it answers 404 not_found, like any resource of another team.
 */
import type { OperationHandlers } from '../http/operation.ts';
import { requireAuth } from '../http/requireAuth.ts';
import { ServiceError } from '../http/serviceError.ts';
import { pageParams } from '../http/pagination.ts';
import { presentDomain } from '../domains/presentDomain.ts';
import { requireVisibleDomain, visibleDomainsPage } from '../domainOps/domainStore.ts';
import {
  checkGroupName,
  checkGroupStatus,
  listGroups,
  presentGroup,
  requireGroup,
} from '../domainOps/domainGroupStore.ts';

export const handlers: OperationHandlers = {
  listDomainGroups: (req, ctx) => ({ data: listGroups(ctx.db, requireAuth(req)).map(presentGroup) }),

  createDomainGroup: (req, ctx) => {
    const auth = requireAuth(req);
    const body = req.body as { name: string; status?: string };
    const status = checkGroupStatus(body.status ?? 'active');
    const at = ctx.clock().toISOString();
    const id = ctx.db.transaction(() => {
      const name = checkGroupName(ctx.db, auth.teamId, body.name);
      return Number(
        ctx.db
          .prepare(
            'INSERT INTO domain_groups (team_id, name, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
          )
          .run(auth.teamId, name, status, at, at).lastInsertRowid,
      );
    })();
    return { status: 201, data: presentGroup(requireGroup(ctx.db, auth, id)) };
  },

  getDomainGroup: (req, ctx) => ({
    data: presentGroup(requireGroup(ctx.db, requireAuth(req), req.params.group_id as number)),
  }),

  updateDomainGroup: (req, ctx) => {
    const auth = requireAuth(req);
    const group = requireGroup(ctx.db, auth, req.params.group_id as number);
    const body = req.body as { name?: string; status?: string };
    const status = body.status === undefined ? group.status : checkGroupStatus(body.status);
    ctx.db.transaction(() => {
      const name =
        body.name === undefined ? group.name : checkGroupName(ctx.db, auth.teamId, body.name, group.id);
      ctx.db
        .prepare('UPDATE domain_groups SET name = ?, status = ?, updated_at = ? WHERE id = ?')
        .run(name, status, ctx.clock().toISOString(), group.id);
    })();
    return { data: presentGroup(requireGroup(ctx.db, auth, group.id)) };
  },

  deleteDomainGroup: (req, ctx) => {
    const auth = requireAuth(req);
    const group = requireGroup(ctx.db, auth, req.params.group_id as number);
    const at = ctx.clock().toISOString();
    ctx.db.transaction(() => {
      // Ungroup explicitly (not only through ON DELETE SET NULL) so the members' updated_at moves too.
      ctx.db
        .prepare('UPDATE domains SET group_id = NULL, updated_at = ? WHERE group_id = ?')
        .run(at, group.id);
      ctx.db.prepare('DELETE FROM domain_groups WHERE id = ?').run(group.id);
    })();
    return { data: { deleted: true, id: group.id } };
  },

  listDomainGroupDomains: (req, ctx) => {
    const auth = requireAuth(req);
    const group = requireGroup(ctx.db, auth, req.params.group_id as number);
    return visibleDomainsPage(ctx.db, auth, pageParams(req.query), group.id);
  },

  addDomainToGroup: (req, ctx) => {
    const auth = requireAuth(req);
    const group = requireGroup(ctx.db, auth, req.params.group_id as number);
    const domain = requireVisibleDomain(ctx.db, auth, (req.body as { domain_id: number }).domain_id);
    // A domain is in one group at most: adding it here moves it out of its previous group.
    if (domain.group_id !== group.id) {
      ctx.db
        .prepare('UPDATE domains SET group_id = ?, updated_at = ? WHERE id = ?')
        .run(group.id, ctx.clock().toISOString(), domain.id);
    }
    return { data: presentDomain(requireVisibleDomain(ctx.db, auth, domain.id)) };
  },

  removeDomainFromGroup: (req, ctx) => {
    const auth = requireAuth(req);
    const group = requireGroup(ctx.db, auth, req.params.group_id as number);
    const domain = requireVisibleDomain(ctx.db, auth, req.params.domain_id as number);
    if (domain.group_id !== group.id) {
      throw new ServiceError(
        404,
        'not_found',
        `Domain ${domain.fqdn} is not a member of group ${group.name}.`,
      );
    }
    ctx.db
      .prepare('UPDATE domains SET group_id = NULL, updated_at = ? WHERE id = ?')
      .run(ctx.clock().toISOString(), domain.id);
    return { data: presentDomain(requireVisibleDomain(ctx.db, auth, domain.id)) };
  },
};
