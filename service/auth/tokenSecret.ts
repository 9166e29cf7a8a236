/**
 * API token secrets. Format: `awt_` + 40 URL-safe random characters (30 random bytes, base64url).
 * Only the sha256 of a secret is stored, plus two display hints that help a user recognise a token in a
 * list and are far from enough to use it: the prefix (`awt_` + 4 characters) and the last four characters.
 */
import { createHash, randomBytes } from 'node:crypto';

/** The fixed service prefix of every token this service issues. */
export const TOKEN_PREFIX = 'awt_';

const PREFIX_DISPLAY_LENGTH = 8;

/** A new random token secret. */
export function generateTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(30).toString('base64url');
}

/** sha256 (hex) of a secret: the only form stored. */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The display prefix of a secret (none of it for secrets too short to spare it). */
export function tokenDisplayPrefix(secret: string): string {
  return secret.length >= 24 ? secret.slice(0, PREFIX_DISPLAY_LENGTH) : '';
}

/** The last four characters of a secret (none of it for secrets too short to spare them). */
export function tokenLastFour(secret: string): string {
  return secret.length >= 24 ? secret.slice(-4) : '';
}
