/**
 * Which domains a member with an assignable role may see: an explicit list (`user_domains`, 001_core.sql)
 * or every domain of the team (`user_all_domains`, 010_team_users.sql). The read side is the shared rule of
 * service/domains/visibility.ts.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { validationError } from '../http/serviceError.ts';
import { VISIBLE_DOMAIN_CONDITION } from '../domains/visibility.ts';

/** 422 on `field` when some of `domainIds` are not domains of the team (other teams' ids look missing). */
export function requireTeamDomainIds(
  db: ServiceDb,
  teamId: number,
  domainIds: readonly number[],
  field = 'body.domain_ids',
): void {
  const known = db.prepare<[number, number], { id: number }>(
    'SELECT id FROM domains WHERE id = ? AND team_id = ?',
  );
  const missing = domainIds.filter((id) => !known.get(id, teamId));
  if (missing.length === 0) return;
  const message = `no domain of this team has id ${missing.join(', ')}`;
  throw validationError([{ field, message }], `Invalid request: ${field} ${message}.`);
}

/** Replaces the member's access: every domain, or exactly `domainIds` (call inside a transaction). */
export function setDomainAccess(
  db: ServiceDb,
  userId: number,
  access: { allDomains: boolean; domainIds?: readonly number[] },
  now: Date,
): void {
  if (access.allDomains) {
    db.prepare('INSERT OR IGNORE INTO user_all_domains (user_id, granted_at) VALUES (?, ?)').run(
      userId,
      now.toISOString(),
    );
  } else {
    db.prepare('DELETE FROM user_all_domains WHERE user_id = ?').run(userId);
  }
  if (access.domainIds) {
    db.prepare('DELETE FROM user_domains WHERE user_id = ?').run(userId);
    const insert = db.prepare('INSERT INTO user_domains (user_id, domain_id) VALUES (?, ?)');
    for (const id of access.domainIds) insert.run(userId, id);
  }
}

/** The domains `userId` sees in team `teamId`, by name. */
export function visibleDomainsOf(
  db: ServiceDb,
  teamId: number,
  userId: number,
): { id: number; fqdn: string }[] {
  return db
    .prepare<{ teamId: number; userId: number }, { id: number; fqdn: string }>(
      `SELECT d.id, d.fqdn FROM domains d WHERE ${VISIBLE_DOMAIN_CONDITION} ORDER BY d.fqdn`,
    )
    .all({ teamId, userId });
}
