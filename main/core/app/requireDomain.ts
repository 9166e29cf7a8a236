import { AuthwatchError } from './authwatchError.ts';
import type { DomainDetail, Mirror } from '../mirror/types.ts';

/** The mirrored domain, or a not_found AuthwatchError. */
export function requireDomain(mirror: Mirror, accountId: number, domainId: number): DomainDetail {
  const detail = mirror.domainDetail(accountId, domainId);
  if (!detail)
    throw new AuthwatchError('not_found', `Account ${accountId} has no domain ${domainId} in the mirror.`);
  return detail;
}
