/**
 * The service's resolver: the sandbox zone answers for every name it is authoritative for (names it
 * holds records for, names at or under a sandbox zone apex or under a domain registered in the service —
 * those get ENOTFOUND/ENODATA from the zone rather than reaching the network); the system resolver answers
 * the rest.
 */
import type { DnsRecordType, DnsResolve } from '../../shared/email-auth/dns.ts';

/** Combines the zone and the fallback; `owns(name)` says whether the zone is authoritative. */
export function createCompositeResolver(
  zone: DnsResolve,
  fallback: DnsResolve,
  owns: (name: string) => boolean,
): DnsResolve {
  const resolve = (name: string, rrtype: DnsRecordType) =>
    (owns(name) ? zone : fallback)(name, rrtype as 'TXT');
  return resolve as DnsResolve;
}
