/**
 * Rules that protect the team: the owner cannot be deleted, disabled or re-roled, an email address is used
 * once per team, and members whose role sees every domain take no per-domain access.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { validationError } from '../http/serviceError.ts';
import { isEmailAddress } from '../../shared/email-auth/domainName.ts';
import type { TeamUserRow } from './teamUser.ts';

/** 422 on `path.user_id` when `row` is the team owner (`action`: "deleted", "disabled", …). */
export function refuseOwner(row: TeamUserRow, action: string): void {
  if (row.is_owner !== 1) return;
  const message = `the team owner cannot be ${action}`;
  throw validationError([{ field: 'path.user_id', message }], `The team owner cannot be ${action}.`);
}

/** The address lower-cased and trimmed, or 422 on `body.email` when it is not a deliverable address. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!isEmailAddress(email)) {
    throw validationError(
      [{ field: 'body.email', message: 'must be an email address like name@example.com' }],
      'Invalid request: body.email must be an email address.',
    );
  }
  return email;
}

/** 422 on `body.email` when another user of the team already has `email`. */
export function requireUnusedEmail(db: ServiceDb, teamId: number, email: string, exceptUserId = 0): void {
  const taken = db
    .prepare<[number, string, number], { id: number }>(
      'SELECT id FROM users WHERE team_id = ? AND email = ? AND id <> ?',
    )
    .get(teamId, email, exceptUserId);
  if (taken) {
    const message = `a user with email ${email} already exists in this team`;
    throw validationError([{ field: 'body.email', message }], `Invalid request: ${message}.`);
  }
}

/** 422 when domain access is given for a user who sees every domain through ownership or role. */
export function refuseAccessChangeForFullAccess(row: TeamUserRow): void {
  if (row.is_owner !== 1 && row.role_assignable === 1) return;
  const who = row.is_owner === 1 ? 'the team owner' : `role ${row.role_name}`;
  const message = `${row.name} sees every domain (${who}); domain access cannot be changed`;
  throw validationError([{ field: 'body', message }], `Invalid request: ${message}.`);
}

/** 422 when both all_domains true and a non-empty domain_ids list are given. */
export function refuseAllDomainsWithList(
  allDomains: boolean | undefined,
  domainIds: number[] | undefined,
): void {
  if (allDomains === true && domainIds && domainIds.length > 0) {
    const message = 'give either all_domains true or a domain_ids list, not both';
    throw validationError([{ field: 'body.domain_ids', message }], `Invalid request: ${message}.`);
  }
}
