/**
 * Reading and writing `domains` rows for the domain operations: the presented view (with the group name),
 * lookups that respect what a member may see, and inserts.
 */
import type { AuthContext } from '../http/operation.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { notFound } from '../http/serviceError.ts';
import { paginated, type PageParams } from '../http/pagination.ts';
import { DOMAIN_SELECT, presentDomain, type DomainListRow } from '../domains/presentDomain.ts';
import { VISIBLE_DOMAIN_CONDITION } from '../domains/visibility.ts';

/** The domain `fqdn` (stored form) of team `teamId`, or undefined. */
export function findDomainByFqdn(db: ServiceDb, teamId: number, fqdn: string): DomainListRow | undefined {
  return db
    .prepare<[number, string], DomainListRow>(`${DOMAIN_SELECT} WHERE d.team_id = ? AND d.fqdn = ?`)
    .get(teamId, fqdn);
}

/**
 * The domain `id` if the caller may see it, else 404 not_found: other teams' domains and, for members with
 * an assignable role, domains not granted to them look missing.
 */
export function requireVisibleDomain(db: ServiceDb, auth: AuthContext, id: number): DomainListRow {
  const row = db
    .prepare<{ id: number; teamId: number; userId: number }, DomainListRow>(
      `${DOMAIN_SELECT} WHERE d.id = @id AND ${VISIBLE_DOMAIN_CONDITION}`,
    )
    .get({ id, teamId: auth.teamId, userId: auth.userId });
  if (!row) throw notFound('Domain');
  return row;
}

/**
 * One page (fqdn order) of the domains the caller may see, presented, in the list envelope; with `groupId`,
 * only that group's members (GET /domains, GET /me/domains, GET /domain-groups/{id}/domains).
 */
export function visibleDomainsPage(db: ServiceDb, auth: AuthContext, page: PageParams, groupId?: number) {
  const args: { teamId: number; userId: number; groupId?: number } = {
    teamId: auth.teamId,
    userId: auth.userId,
  };
  let where = VISIBLE_DOMAIN_CONDITION;
  if (groupId !== undefined) {
    args.groupId = groupId;
    where = `d.group_id = @groupId AND ${where}`;
  }
  const total = db
    .prepare<typeof args, { n: number }>(`SELECT COUNT(*) AS n FROM domains d WHERE ${where}`)
    .get(args)!.n;
  const rows = db
    .prepare<typeof args & { limit: number; offset: number }, DomainListRow>(
      `${DOMAIN_SELECT} WHERE ${where} ORDER BY d.fqdn LIMIT @limit OFFSET @offset`,
    )
    .all({ ...args, limit: page.limit, offset: page.offset });
  return paginated(total, rows.map(presentDomain), page);
}

/** What a new domain needs; the name is already in stored form and free in the team. */
export interface NewDomain {
  teamId: number;
  fqdn: string;
  parentDomainId: number | null;
  now: Date;
}

/** Inserts a domain (status active, onboarding pending, nothing verified); returns its id. */
export function insertDomain(db: ServiceDb, d: NewDomain): number {
  const at = d.now.toISOString();
  return Number(
    db
      .prepare(
        `INSERT INTO domains (team_id, fqdn, parent_domain_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(d.teamId, d.fqdn, d.parentDomainId, at, at).lastInsertRowid,
  );
}
