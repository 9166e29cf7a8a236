/** The PTR owner name of an IP address (RFC 1035 §3.5 in-addr.arpa, RFC 3596 §2.5 ip6.arpa). */
import { parseIPv4, parseIPv6 } from '../../shared/email-auth/ipAddress.ts';

/** `4.3.2.1.in-addr.arpa` for 1.2.3.4, the 32 reversed nibbles under ip6.arpa for IPv6; null when not an IP. */
export function reverseDnsName(ip: string): string | null {
  const v4 = parseIPv4(ip);
  if (v4) return `${[...v4].reverse().join('.')}.in-addr.arpa`;
  const v6 = parseIPv6(ip);
  if (!v6) return null;
  const nibbles = v6.flatMap((group) => group.toString(16).padStart(4, '0').split(''));
  return `${nibbles.reverse().join('.')}.ip6.arpa`;
}
