import { randomBytes, timingSafeEqual } from 'node:crypto';

/** A per-run secret: 32 random bytes, URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares a presented value with the secret in constant time (length leaks nothing useful: it is fixed). */
export function secretMatches(secret: string, presented: string | undefined | null): boolean {
  if (!presented) return false;
  const a = Buffer.from(secret);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}
