/**
 * Source names already worked out, by address, for the life of the service: a report of 2,000 senders is often
 * followed by another from the same senders, and each name costs up to four DNS lookups. Only definitive
 * answers are kept (a name, or DNS saying there is none); a lookup that timed out is tried again next time.
 */
import type { DnsResolve } from '../../shared/email-auth/dns.ts';

/** How long a name is trusted: PTR records change rarely, but a day-old cache must not hide a fix. */
export const SOURCE_NAME_TTL_MS = 6 * 60 * 60 * 1000;
/** Addresses kept at most (oldest dropped first); ~100 bytes each. */
export const SOURCE_NAME_CACHE_SIZE = 100_000;

/** Names by address with an expiry. */
export class SourceNameCache {
  private readonly entries = new Map<string, { name: string; until: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = SOURCE_NAME_TTL_MS,
    private readonly maxEntries = SOURCE_NAME_CACHE_SIZE,
  ) {}

  /** The cached name of `ip`, or undefined when unknown or expired. */
  get(ip: string): string | undefined {
    const hit = this.entries.get(ip);
    if (!hit) return undefined;
    if (hit.until > this.now()) return hit.name;
    this.entries.delete(ip);
    return undefined;
  }

  /** Remembers the name of `ip`. */
  set(ip: string, name: string): void {
    this.entries.delete(ip);
    this.entries.set(ip, { name, until: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}

// One cache per resolver: names are only as good as the DNS they came from (a test's fake zone, the sandbox
// zone over the system resolver), and a resolver lives as long as the service that made it.
const caches = new WeakMap<DnsResolve, SourceNameCache>();

/** The cache of names looked up through `resolver`. */
export function sourceNameCacheOf(resolver: DnsResolve): SourceNameCache {
  let cache = caches.get(resolver);
  if (!cache) {
    cache = new SourceNameCache();
    caches.set(resolver, cache);
  }
  return cache;
}
