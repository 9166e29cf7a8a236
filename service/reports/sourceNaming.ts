/**
 * Names the sending sources of DMARC aggregate records (stored as `source_name` at ingestion):
 *   1. reverse DNS: the address's PTR name, trusted only when forward-confirmed (the name's A/AAAA records
 *      include the address — anyone can write any PTR for their own addresses), reduced to its organisation's
 *      base domain with the public suffix list (mail-xyz.google.com → google.com) and shown as the
 *      organisation's name when it is a well-known sender (google.com → "Google"), else as the base domain;
 *   2. else the well-known sender whose network holds the address (shared/email-auth/knownSenders.ts);
 *   3. else the address itself.
 * Lookups go through the service's resolver (sandbox zone first), many addresses at a time; a failed lookup
 * only moves on to the next rule. A report's naming has a deadline: with DNS unreachable every lookup waits for
 * its timeout, and a 2,286-sender report took ~40 s. Addresses not named by then are named without DNS (rule 2,
 * else the address itself). Names are cached by address across reports (./sourceNameCache.ts).
 */
import { getDomain } from 'tldts';
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import { isVoidAnswer } from '../../shared/email-auth/dns.ts';
import { formatIPv6, ipFamily, parseIPv6 } from '../../shared/email-auth/ipAddress.ts';
import { normalizeDomain } from '../../shared/email-auth/protocols.ts';
import { networkOwner, ORGANISATIONS } from '../../shared/email-auth/knownSenders.ts';
import { reverseDnsName } from './reverseDnsName.ts';
import { sourceNameCacheOf } from './sourceNameCache.ts';
import type { SourceNameCache } from './sourceNameCache.ts';

/** How naming the sources of one report is bounded. */
export interface NamingBounds {
  /** Addresses being looked up at once (each takes one to four lookups in turn). */
  concurrency: number;
  /** Time for the whole report; addresses not named by then are named without DNS. */
  deadlineMs: number;
}

/**
 * 32 at once keeps a resolver busy without flooding it. 1.5 s from the start of the upload keeps the 2,286-record
 * report under 3 s even on a loaded machine (`npm run bench`: 2.0 s at load average 20 on 2 cores).
 */
export const DEFAULT_NAMING_BOUNDS: NamingBounds = { concurrency: 32, deadlineMs: 1500 };
/** PTR names checked per address (a host may carry several). */
const MAX_PTR_NAMES = 3;

function canonicalIp(ip: string): string {
  const v6 = parseIPv6(ip);
  return v6 && ipFamily(ip) === 6 ? formatIPv6(v6) : ip;
}

/** A lookup's answers; `definitive` is false when DNS failed rather than said "nothing". */
async function lookup(
  resolver: DnsResolve,
  name: string,
  rrtype: 'PTR' | 'A' | 'AAAA',
): Promise<{ answers: string[]; definitive: boolean }> {
  try {
    return { answers: await resolver(name, rrtype), definitive: true };
  } catch (err) {
    return { answers: [], definitive: isVoidAnswer(err) };
  }
}

/** The organisation name of a reverse DNS host name, or null when it has no registrable domain. */
export function organisationOfHost(host: string): string | null {
  const base = getDomain(normalizeDomain(host));
  if (!base) return null;
  return ORGANISATIONS[base] ?? base;
}

/** The source name of one address, and whether DNS answered every lookup it made (worth caching). */
async function lookUpName(resolver: DnsResolve, ip: string): Promise<{ name: string; definitive: boolean }> {
  const reverse = reverseDnsName(ip);
  let definitive = true;
  if (reverse) {
    const ptr = await lookup(resolver, reverse, 'PTR');
    definitive &&= ptr.definitive;
    for (const host of ptr.answers.slice(0, MAX_PTR_NAMES)) {
      const name = organisationOfHost(host);
      const family = ipFamily(ip);
      if (!name || family === null) continue;
      const forward = await lookup(resolver, host, family === 4 ? 'A' : 'AAAA');
      definitive &&= forward.definitive;
      const wanted = canonicalIp(ip);
      if (forward.answers.some((a) => canonicalIp(a) === wanted)) return { name, definitive: true };
    }
  }
  return { name: nameWithoutDns(ip), definitive };
}

/** Rules 2 and 3: the well-known network holding the address, else the address itself. */
export function nameWithoutDns(ip: string): string {
  return networkOwner(ip) ?? ip;
}

/** The source name of one address (see the module comment for the rule). */
export async function nameSource(resolver: DnsResolve, ip: string): Promise<string> {
  return (await lookUpName(resolver, ip)).name;
}

/**
 * Names every distinct address of `ips` (the map is keyed by the address as given): cached names first, then
 * up to `bounds.concurrency` addresses looked up at once until `bounds.deadlineMs`; the rest are named without
 * DNS. Lookups still running at the deadline finish in the background and only fill the cache.
 */
export async function nameSources(
  resolver: DnsResolve,
  ips: Iterable<string>,
  bounds: NamingBounds = DEFAULT_NAMING_BOUNDS,
  cache: SourceNameCache = sourceNameCacheOf(resolver),
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const pending: string[] = [];
  for (const ip of new Set(ips)) {
    const cached = cache.get(ip);
    if (cached === undefined) pending.push(ip);
    else names.set(ip, cached);
  }
  let timeUp = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      timeUp = true;
      resolve();
    }, bounds.deadlineMs);
  });
  let next = 0;
  const worker = async () => {
    while (!timeUp && next < pending.length) {
      const ip = pending[next++]!;
      const { name, definitive } = await lookUpName(resolver, ip);
      if (definitive) cache.set(ip, name);
      if (!timeUp) names.set(ip, name);
    }
  };
  const workers = Array.from({ length: Math.min(bounds.concurrency, pending.length) }, worker);
  await Promise.race([Promise.all(workers), deadline]);
  clearTimeout(timer);
  for (const ip of pending) if (!names.has(ip)) names.set(ip, nameWithoutDns(ip));
  return names;
}
