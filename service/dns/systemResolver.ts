/** The machine's DNS, through node's resolver with a short timeout (2 s, one try): demos must not hang. */
import { Resolver } from 'node:dns/promises';
import type { DnsRecordType, DnsResolve } from '../../shared/email-auth/dns.ts';

/** A `DnsResolve` over the system's name servers. */
export function createSystemResolver(options: { timeoutMs?: number; tries?: number } = {}): DnsResolve {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 1 });
  const resolve = (name: string, rrtype: DnsRecordType) =>
    (resolver.resolve as (n: string, t: string) => Promise<unknown>)(name, rrtype);
  return resolve as DnsResolve;
}
