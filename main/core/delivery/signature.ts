import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`: what X-Authwatch-Signature carries. */
export function signWebhook(secret: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

/**
 * A receiver's check (for tests and for users writing one): the signature matches and the timestamp is
 * within `toleranceSeconds` of now, so a captured request cannot be replayed later.
 */
export function verifyWebhook(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > toleranceSeconds || !headers.signature)
    return false;
  const expected = Buffer.from(signWebhook(secret, ts, rawBody));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
