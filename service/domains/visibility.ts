/**
 * Which domains a user sees (GET /me/domains, and the domain lists of S1): the team owner and the
 * non-assignable roles (Owner, Admin, Editor) see every domain of the team; members with an assignable
 * role (Viewer, Analyst, Domain Manager, …) see the domains granted to them in `user_domains`, or every
 * domain when granted all of them (`user_all_domains`, 010_team_users.sql).
 */

/** SQL condition over alias `d` (domains) with named parameters `@teamId` and `@userId`. */
export const VISIBLE_DOMAIN_CONDITION = `d.team_id = @teamId AND (
  EXISTS (SELECT 1 FROM users u JOIN roles r ON r.id = u.role_id
          WHERE u.id = @userId AND (u.is_owner = 1 OR r.assignable = 0))
  OR EXISTS (SELECT 1 FROM user_all_domains ua WHERE ua.user_id = @userId)
  OR EXISTS (SELECT 1 FROM user_domains ud WHERE ud.user_id = @userId AND ud.domain_id = d.id))`;
