/**
 * Domain names as the service stores them: lower case, no trailing dot, and matching the document's `Fqdn`
 * pattern (letters/digits/hyphens in labels of 1–63, an alphabetic or punycode top label, ≤ 253 in all).
 */

// The `Fqdn` schema's pattern of shared/api/openapi.yaml, applied after lower-casing.
const FQDN_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** The stored form of `raw` (trimmed, lower case, one trailing dot dropped), or why it is not a domain name. */
export function checkFqdn(raw: string): { fqdn: string } | { error: string } {
  const fqdn = raw.trim().toLowerCase().replace(/\.$/, '');
  if (fqdn === '') return { error: 'is empty' };
  if (fqdn.length > 253) return { error: 'is longer than 253 characters' };
  if (!FQDN_PATTERN.test(fqdn)) {
    return { error: `"${raw.trim()}" is not a domain name like example.com` };
  }
  return { fqdn };
}
