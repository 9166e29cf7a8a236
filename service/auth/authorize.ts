/** Steps 6–7 of the check order: the operation's `x-scope`, then `x-owner-only`. */
import type { AuthContext } from '../http/operation.ts';
import { ServiceError } from '../http/serviceError.ts';

/** 403 insufficient_scope naming the missing scope. */
export function requireScope(auth: AuthContext, scope: string | null): void {
  if (scope && !auth.scopes.includes(scope)) {
    throw new ServiceError(403, 'insufficient_scope', `The API token lacks the required scope ${scope}.`);
  }
}

/**
 * 403 team_owner_required when an `x-owner-only` operation is called by a member who is not the team owner.
 * The interface names no code for this case; `team_owner_required` is the document's (x-inferred) choice.
 */
export function requireOwner(auth: AuthContext, ownerOnly: boolean): void {
  if (ownerOnly && !auth.isOwner) {
    throw new ServiceError(
      403,
      'team_owner_required',
      'This operation requires the team owner; the token belongs to a team member.',
    );
  }
}
