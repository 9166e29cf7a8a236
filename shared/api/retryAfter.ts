/**
 * Milliseconds to wait from a Retry-After header value (RFC 9110: delay-seconds or an HTTP-date),
 * relative to `nowMs`; undefined when absent or unreadable. A date in the past means "now" (0).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) {
    const seconds = Number(text);
    return Number.isFinite(seconds) ? Math.round(seconds * 1000) : undefined;
  }
  // Date.parse reads the IMF-fixdate form servers send ("Wed, 21 Oct 2015 07:28:00 GMT").
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
