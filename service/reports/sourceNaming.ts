/**
 * Names the sending sources of DMARC aggregate records (stored as `source_name` at ingestion):
 *   1. reverse DNS: the address's PTR name, trusted only when forward-confirmed (the name's A/AAAA records
 *      include the address — anyone can write any PTR for their own addresses), reduced to its organisation's
 *      base domain with the public suffix list (mail-xyz.google.com → google.com) and shown as the
 *      organisation's name when it is a well-known sender (google.com → "Google"), else as the base domain;
 *   2. else the well-known sender whose network holds the address (./knownSenders.ts);
 *   3. else the address itself.
 * Lookups go through the service's resolver (sandbox zone first), a few at a time; a failed lookup only
 * moves on to the next rule.
 */
import { getDomain } from 'tldts';
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import { formatIPv6, ipFamily, parseIPv6 } from '../../shared/email-auth/ipAddress.ts';
import { normalizeDomain } from '../../shared/email-auth/protocols.ts';
import { networkOwner, ORGANISATIONS } from './knownSenders.ts';
import { reverseDnsName } from './reverseDnsName.ts';

/** Lookups in flight at once while naming the sources of one report. */
const CONCURRENCY = 8;
/** PTR names checked per address (a host may carry several). */
const MAX_PTR_NAMES = 3;

function canonicalIp(ip: string): string {
  const v6 = parseIPv6(ip);
  return v6 && ipFamily(ip) === 6 ? formatIPv6(v6) : ip;
}

async function forwardConfirmed(resolver: DnsResolve, name: string, ip: string): Promise<boolean> {
  const family = ipFamily(ip);
  if (family === null) return false;
  try {
    const addresses = await resolver(name, family === 4 ? 'A' : 'AAAA');
    const wanted = canonicalIp(ip);
    return addresses.some((a) => canonicalIp(a) === wanted);
  } catch {
    return false;
  }
}

/** The organisation name of a reverse DNS host name, or null when it has no registrable domain. */
export function organisationOfHost(host: string): string | null {
  const base = getDomain(normalizeDomain(host));
  if (!base) return null;
  return ORGANISATIONS[base] ?? base;
}

/** The source name of one address (see the module comment for the rule). */
export async function nameSource(resolver: DnsResolve, ip: string): Promise<string> {
  const reverse = reverseDnsName(ip);
  if (reverse) {
    let hosts: string[] = [];
    try {
      hosts = await resolver(reverse, 'PTR');
    } catch {
      hosts = [];
    }
    for (const host of hosts.slice(0, MAX_PTR_NAMES)) {
      const name = organisationOfHost(host);
      if (name && (await forwardConfirmed(resolver, host, ip))) return name;
    }
  }
  return networkOwner(ip) ?? ip;
}

/** Names every distinct address of `ips`; the map is keyed by the address as given. */
export async function nameSources(resolver: DnsResolve, ips: Iterable<string>): Promise<Map<string, string>> {
  const pending = [...new Set(ips)];
  const names = new Map<string, string>();
  const worker = async () => {
    for (let ip = pending.pop(); ip !== undefined; ip = pending.pop()) {
      names.set(ip, await nameSource(resolver, ip));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, worker));
  return names;
}
