/**
 * When each account's API token expires, as GET /auth/me said when the token was last checked (added,
 * tested, replaced): kept in the mirror's settings so the token-expiry live check judges it against the clock
 * without a request. A token's expiry never changes while it is the same token, so no poll is needed.
 */
import type { Mirror } from '../mirror/types.ts';
import type { AccountIdentity } from '../../../shared/bridge/results.ts';

/** The settings key: `{ [accountId]: TokenExpiryRecord }`. */
export const TOKEN_EXPIRY_KEY = 'tokenExpiry';

/** What /auth/me said of the token. */
export interface TokenExpiryRecord {
  /** null: the token does not expire. */
  expiresAt: string | null;
  tokenName: string | null;
  readAt: string;
}

/** The stored records, by account id. */
export function tokenExpiryRecords(getSetting: Mirror['getSetting']): Record<string, TokenExpiryRecord> {
  const stored = getSetting(TOKEN_EXPIRY_KEY);
  return stored && typeof stored === 'object' ? (stored as Record<string, TokenExpiryRecord>) : {};
}

/** Keeps what the identity says of the account's token. */
export function recordTokenExpiry(
  mirror: Mirror,
  accountId: number,
  identity: AccountIdentity,
  at: number,
): void {
  mirror.setSetting(TOKEN_EXPIRY_KEY, {
    ...tokenExpiryRecords((k) => mirror.getSetting(k)),
    [accountId]: {
      expiresAt: identity.tokenExpiresAt,
      tokenName: identity.tokenName,
      readAt: new Date(at).toISOString(),
    },
  });
}
