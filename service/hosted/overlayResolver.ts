/**
 * A resolver that answers one name's TXT query with a given record and passes everything else on: lets the
 * SPF flattener resolve a hosted record (or an unsaved draft) exactly as receivers would resolve it once
 * published, whatever the underlying resolver holds for that name.
 */
import type { DnsRecordType, DnsResolve } from '../../shared/email-auth/dns.ts';
import { normalizeDomain } from '../../shared/email-auth/protocols.ts';

/** `resolve`, except that TXT of `name` answers `[[record]]`. */
export function withTxtOverride(resolve: DnsResolve, name: string, record: string): DnsResolve {
  const target = normalizeDomain(name);
  const overlay = async (n: string, rrtype: DnsRecordType) => {
    if (rrtype === 'TXT' && normalizeDomain(n) === target) return [[record]];
    return (resolve as (n: string, t: DnsRecordType) => Promise<unknown>)(n, rrtype);
  };
  return overlay as DnsResolve;
}
