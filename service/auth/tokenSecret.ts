/**
 * API token secrets. Format: `awt_` + 40 URL-safe random characters (30 random bytes, base64url).
 * Only the sha256 of a secret is stored; `prefix` (the first 12 characters: `awt_` + 8) is kept to help a
 * user recognise a token in a list, and is not enough to use it.
 */
import { createHash, randomBytes } from 'node:crypto';

/** The fixed service prefix of every token this service issues. */
export const TOKEN_PREFIX = 'awt_';

const PREFIX_DISPLAY_LENGTH = 12;

/** A new random token secret. */
export function generateTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(30).toString('base64url');
}

/** sha256 (hex) of a secret: the only form stored. */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The display prefix of a secret. */
export function tokenDisplayPrefix(secret: string): string {
  return secret.slice(0, Math.min(PREFIX_DISPLAY_LENGTH, Math.max(0, secret.length - 4)));
}
