/** Request ids: the caller's X-Request-Id when it is UUID-shaped, a fresh UUID otherwise. */
import { randomUUID } from 'node:crypto';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The request id to use for a call given its X-Request-Id header value(s). */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && UUID_SHAPE.test(value.trim()) ? value.trim() : randomUUID();
}
