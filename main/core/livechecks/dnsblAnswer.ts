/**
 * One DNSBL question and how its answer is read (RFC 5782): the IP's reversed octets (IPv4) or nibbles
 * (IPv6) under the zone; an A record in 127.0.0.0/8 is a listing (its TXT says why), NXDOMAIN is not listed.
 * An answer outside 127.0.0.0/8 (a resolver rewriting NXDOMAIN to an ad server) or one of the zone's
 * documented "refused" codes is an error about the query, never a listing; a resolver that does not answer
 * says nothing at all.
 */
import { isIP } from 'node:net';
import { reversedIp } from '../../../shared/email-auth/reversedIp.ts';
import type { Lookup } from '../dnswatch/watchResolver.ts';
import type { DnsblZone } from '../../../shared/email-auth/dnsblZones.ts';

/** The name to ask for `ip` under `zone` (RFC 5782 §2.1, §2.4). */
export function dnsblQueryName(ip: string, zone: string): string {
  const reversed = reversedIp(ip);
  if (reversed === null) throw new Error(`${ip} is not an IP address`);
  return `${reversed}.${zone}`;
}

/** What one zone said about one IP. */
export type DnsblVerdict =
  | { kind: 'listed'; codes: string[]; reason: string | null }
  | { kind: 'clear' }
  | { kind: 'error'; why: string }
  | { kind: 'unknown'; why: string };

function inLoopback(address: string): boolean {
  return isIP(address) === 4 && address.split('.')[0] === '127';
}

/** Reads the A answer (and, for a listing, the TXT answer) of a DNSBL query. */
export function readDnsblAnswer(zone: DnsblZone, a: Lookup, txt: Lookup | null): DnsblVerdict {
  if (a.kind === 'unknown') return { kind: 'unknown', why: a.reason };
  if (a.kind === 'absent') return { kind: 'clear' };
  const codes = a.values.map((v) => v[0] ?? '');
  const refused = codes.find((c) => zone.refusedCodes[c] !== undefined);
  if (refused)
    return { kind: 'error', why: `${zone.zone} answered ${refused}: ${zone.refusedCodes[refused]}` };
  const outside = codes.find((c) => !inLoopback(c));
  if (outside) {
    return {
      kind: 'error',
      why: `${zone.zone} answered ${outside}, outside 127.0.0.0/8: not a DNSBL answer (the resolver may rewrite unknown names)`,
    };
  }
  const reason = txt?.kind === 'records' ? txt.values.map((v) => v.join('')).join(' ') || null : null;
  return { kind: 'listed', codes, reason };
}
