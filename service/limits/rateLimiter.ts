/**
 * Fixed-window rate limiter driven by the injected clock: each key (a token id or a client IP) may make
 * `limit` requests per window (one minute, aligned on the minute of the clock). A fixed window is what
 * the X-RateLimit-Reset header describes exactly, and it lets tests move the clock to the next minute to
 * see the limit recover.
 */

/** The state of a key, as the X-RateLimit-* headers report it. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix time in ms when the current window ends. */
  resetAtMs: number;
  /** False when this request exceeded the limit. */
  allowed: boolean;
}

/** A per-key request counter. */
export interface RateLimiter {
  /** Counts one request of `key` and reports whether it is allowed. */
  consume(key: string): RateLimitState;
  /** Reports the state of `key` without counting a request. */
  peek(key: string): RateLimitState;
}

/** Creates a limiter of `limit` requests per `windowMs` per key. */
export function createRateLimiter(limit: number, clock: () => Date, windowMs = 60_000): RateLimiter {
  const counters = new Map<string, { window: number; count: number }>();
  let lastSweep = -1;

  function current(key: string): { window: number; count: number } {
    const window = Math.floor(clock().getTime() / windowMs);
    if (window !== lastSweep) {
      // Forget keys of past windows so the map does not grow with every IP ever seen.
      for (const [k, v] of counters) if (v.window !== window) counters.delete(k);
      lastSweep = window;
    }
    let entry = counters.get(key);
    if (!entry || entry.window !== window) {
      entry = { window, count: 0 };
      counters.set(key, entry);
    }
    return entry;
  }

  function state(entry: { window: number; count: number }, allowed: boolean): RateLimitState {
    return {
      limit,
      remaining: Math.max(0, limit - entry.count),
      resetAtMs: (entry.window + 1) * windowMs,
      allowed,
    };
  }

  return {
    consume(key) {
      const entry = current(key);
      if (entry.count >= limit) return state(entry, false);
      entry.count += 1;
      return state(entry, true);
    },
    peek(key) {
      return state(current(key), true);
    },
  };
}

/** The X-RateLimit-* headers (Reset in Unix seconds) and, when refused, Retry-After in seconds. */
export function rateLimitHeaders(s: RateLimitState, nowMs: number): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(s.limit),
    'x-ratelimit-remaining': String(s.remaining),
    'x-ratelimit-reset': String(Math.ceil(s.resetAtMs / 1000)),
  };
  if (!s.allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((s.resetAtMs - nowMs) / 1000)));
  return headers;
}
