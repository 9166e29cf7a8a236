/**
 * N domains' zone in memory, answered as an authoritative server would (records with their TTL, NXDOMAIN with
 * the SOA's negative TTL), as a DnsQuery the watch's resolver can ask: the latency simulation's DNS, with no
 * socket and no time spent, so the simulated clock alone decides the pace. Every question is counted.
 */
import type { DnsQuery, DnsReply } from '../../../main/core/dnswatch/dnsQuery.ts';

export const SPF = 'v=spf1 ip4:192.0.2.0/24 -all';
export const DMARC = 'v=DMARC1; p=reject; rua=mailto:dmarc@example.net';

/** The fqdn of domain number `i`. */
export const fqdnOf = (i: number) => `d${i}.bench.example`;

export interface MemoryZone {
  query: DnsQuery;
  /** TXT records by name. */
  txt: Map<string, string>;
  asked: number;
}

/** A zone where each of `domains` publishes SPF and DMARC, every answer with `ttl`. */
export function memoryZone(domains: number, ttl = 60): MemoryZone {
  const zone: MemoryZone = { txt: new Map(), asked: 0, query: null as unknown as DnsQuery };
  for (let i = 0; i < domains; i++) {
    zone.txt.set(fqdnOf(i), SPF);
    zone.txt.set(`_dmarc.${fqdnOf(i)}`, DMARC);
  }
  zone.query = async (server, name, type): Promise<DnsReply> => {
    zone.asked++;
    const value = type === 'TXT' ? zone.txt.get(name.toLowerCase()) : undefined;
    if (value !== undefined) {
      return {
        rcode: 'NOERROR',
        answers: [{ name, type: 'TXT', ttl, data: [value] }],
        negativeTtl: null,
        server,
      };
    }
    return { rcode: 'NXDOMAIN', answers: [], negativeTtl: ttl, server };
  };
  return zone;
}
