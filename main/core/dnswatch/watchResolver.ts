/**
 * The watch's resolver: asks the listed servers in turn (each under its own rate cap), moves on to the next
 * server when one fails to answer, follows CNAMEs a server left for the client to chase, and caches definite
 * answers (records, NXDOMAIN, NODATA) for their TTL. It tells three outcomes apart, because only two of them
 * are evidence: records, absent (NXDOMAIN or no records of the type), and unknown (SERVFAIL, REFUSED, timeout —
 * the resolver's trouble, never the domain's).
 */
import type { ApiClock } from '../../../shared/api/clock.ts';
import { DnsError, type DnsResolve } from '../../../shared/email-auth/dns.ts';
import { serverLabel, type DnsQuery, type DnsReply, type DnsServer, type QueryType } from './dnsQuery.ts';
import { QueryBucket } from './rateCap.ts';

/** A definite or unknown answer to one name and type, as the watch judges it. */
export type Lookup =
  | { kind: 'records'; values: string[][]; ttl: number; cnames: string[]; server: string }
  | { kind: 'absent'; rcode: 'NXDOMAIN' | 'NODATA'; ttl: number | null; cnames: string[]; server: string }
  | { kind: 'unknown'; reason: string; server: string };

export interface WatchResolverOptions {
  servers: DnsServer[];
  query: DnsQuery;
  clock: Pick<ApiClock, 'now' | 'sleep'>;
  /** Queries a second to each server. */
  ratePerSecond: number;
  /**
   * The longest an answer is kept (seconds): the watch's ceiling. A record's TTL is the owner's wish for
   * caches, not a promise it will not change; a day-long TTL (or a forged one) must not stop the watch from
   * asking within its ceiling. Default: no cap beyond the TTL.
   */
  maxCacheSeconds?: number;
}

const MAX_CNAME_HOPS = 8;

/** The watch's resolver over `servers`. */
export class WatchResolver {
  private readonly buckets: QueryBucket[];
  private readonly cache = new Map<string, { lookup: Lookup; expiresAt: number }>();
  /**
   * Questions on the wire now: a second asker of the same name and type waits for the same answer instead
   * of sending it again (an MX host shared by thousands of domains is asked once per round, not once per
   * domain in flight).
   */
  private readonly pending = new Map<string, Promise<Lookup>>();
  private next = 0;
  private sent = 0;

  constructor(private readonly o: WatchResolverOptions) {
    if (o.servers.length === 0) throw new Error('the DNS watch needs at least one server');
    this.buckets = o.servers.map(() => new QueryBucket(o.ratePerSecond, o.clock));
  }

  /** Queries sent since start (every packet, to every server). */
  get queriesSent(): number {
    return this.sent;
  }

  /** The servers, as people write them. */
  get labels(): string[] {
    return this.o.servers.map(serverLabel);
  }

  private async ask(name: string, type: QueryType): Promise<DnsReply | { failed: string; server: string }> {
    const n = this.o.servers.length;
    const start = this.next++ % n;
    let failure = { failed: 'no answer', server: '' };
    for (let i = 0; i < n; i++) {
      const index = (start + i) % n;
      const server = this.o.servers[index]!;
      await this.buckets[index]!.take();
      this.sent++;
      try {
        const reply = await this.o.query(server, name, type);
        if (reply.rcode === 'NOERROR' || reply.rcode === 'NXDOMAIN') return reply;
        failure = { failed: `the resolver answered ${reply.rcode}`, server: serverLabel(server) };
      } catch (err) {
        const code = (err as { code?: string }).code;
        failure = {
          failed:
            code === 'ETIMEOUT' ? 'the resolver did not answer in time' : `no answer (${code ?? 'error'})`,
          server: serverLabel(server),
        };
      }
    }
    return failure;
  }

  /** Looks `name` up; `fresh` skips the cache (a confirmation must ask again). */
  async lookup(name: string, type: QueryType, options: { fresh?: boolean } = {}): Promise<Lookup> {
    const key = `${type} ${name.toLowerCase()}`;
    const now = this.o.clock.now();
    const hit = this.cache.get(key);
    if (!options.fresh && hit && hit.expiresAt > now) return hit.lookup;
    const asked = this.pending.get(key);
    // A fresh look must not take an answer to a question sent before it asked.
    if (!options.fresh && asked) return asked;
    const answer = this.resolveChain(name.toLowerCase().replace(/\.$/, ''), type).then((lookup) => {
      if (lookup.kind !== 'unknown') {
        // The TTL counts from when the answer came, not from when it was asked.
        const at = this.o.clock.now();
        const ttl = Math.min(lookup.ttl ?? 0, this.o.maxCacheSeconds ?? Infinity);
        if (ttl > 0) this.cache.set(key, { lookup, expiresAt: at + ttl * 1000 });
        if (this.cache.size > 50_000) this.prune(at);
      }
      return lookup;
    });
    this.pending.set(key, answer);
    try {
      return await answer;
    } finally {
      if (this.pending.get(key) === answer) this.pending.delete(key);
    }
  }

  private prune(now: number): void {
    for (const [key, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(key);
  }

  private async resolveChain(name: string, type: QueryType): Promise<Lookup> {
    const cnames: string[] = [];
    // Every name the chain has reached: a CNAME back to one of them is a loop (of any length, to itself
    // too), which no resolver can answer — unknown, never "absent".
    const seen = new Set([name]);
    const loop = (server: string): Lookup => ({
      kind: 'unknown',
      reason: `the CNAME chain of ${name} loops (${[name, ...cnames].join(' → ')})`,
      server,
    });
    let minTtl = Infinity;
    let current = name;
    for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
      const reply = await this.ask(current, type);
      if ('failed' in reply) return { kind: 'unknown', reason: reply.failed, server: reply.server };
      const server = serverLabel(reply.server);
      // Walk the chain the server gave: CNAMEs from the asked name, then the records at its end.
      let owner = current;
      for (let guard = 0; guard <= MAX_CNAME_HOPS; guard++) {
        const cname = reply.answers.find((a) => a.type === 'CNAME' && a.name === owner);
        if (!cname || type === 'CNAME') break;
        cnames.push(cname.data[0]!);
        minTtl = Math.min(minTtl, cname.ttl);
        owner = cname.data[0]!.toLowerCase().replace(/\.$/, '');
        if (seen.has(owner)) return loop(server);
        seen.add(owner);
      }
      if (cnames.length > MAX_CNAME_HOPS) break;
      const records = reply.answers.filter((a) => a.type === type && a.name === owner);
      if (records.length > 0) {
        const ttl = Math.min(minTtl, ...records.map((r) => r.ttl));
        return { kind: 'records', values: records.map((r) => r.data), ttl, cnames, server };
      }
      if (owner !== current && reply.rcode === 'NOERROR' && reply.negativeTtl === null) {
        // The server gave the chain but not its end (an authoritative server for a target outside its zone).
        current = owner;
        continue;
      }
      const ttl = reply.negativeTtl === null ? null : Math.min(minTtl, reply.negativeTtl);
      const rcode = reply.rcode === 'NXDOMAIN' ? 'NXDOMAIN' : 'NODATA';
      return { kind: 'absent', rcode, ttl: ttl === Infinity ? null : ttl, cnames, server };
    }
    return { kind: 'unknown', reason: `CNAME chain longer than ${MAX_CNAME_HOPS} names`, server: '' };
  }

  /** The resolver in the shape shared/email-auth takes (SPF's includes, a and mx terms), through the cache. */
  asDnsResolve(): DnsResolve {
    return dnsResolveOver((name, type) => this.lookup(name, type));
  }
}

/**
 * A lookup function in the shape shared/email-auth takes: records as node's resolver returns them, absent as
 * ENOTFOUND/ENODATA (void answers), unknown as ESERVFAIL (a failure, never evidence).
 */
export function dnsResolveOver(lookup: (name: string, type: QueryType) => Promise<Lookup>): DnsResolve {
  const resolve = async (name: string, rrtype: string) => {
    const found = await lookup(name, rrtype as QueryType);
    if (found.kind === 'unknown') throw new DnsError('ESERVFAIL', name, rrtype);
    if (found.kind === 'absent') {
      throw new DnsError(found.rcode === 'NXDOMAIN' ? 'ENOTFOUND' : 'ENODATA', name, rrtype);
    }
    if (rrtype === 'TXT') return found.values;
    if (rrtype === 'MX') {
      return found.values.map(([p, exchange]) => ({ priority: Number(p), exchange: exchange ?? '' }));
    }
    return found.values.map((v) => v[0] ?? '');
  };
  return resolve as DnsResolve;
}
