/** What replaces a secret in any text the client produces. */
export const REDACTED = '[redacted]';

/** `text` with every occurrence of `secret` replaced; servers may echo the token back in a message. */
export function scrubText(text: string, secret: string | undefined): string {
  if (!secret || !text.includes(secret)) return text;
  const scrubbed = text.split(secret).join(REDACTED);
  // Only a secret that overlaps the marker itself could survive one pass; give up on the text then.
  return scrubbed.includes(secret) ? REDACTED : scrubbed;
}

/** A deep copy of a JSON-like value with the secret scrubbed from every string, keys included. */
export function scrubDeep(value: unknown, secret: string | undefined, depth = 0): unknown {
  if (!secret) return value;
  if (typeof value === 'string') return scrubText(value, secret);
  // Server-supplied details are JSON, so depth is bounded by the parser; the cap guards odd inputs.
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, secret, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[scrubText(key, secret)] = scrubDeep(item, secret, depth + 1);
  }
  return out;
}
