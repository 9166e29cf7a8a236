/** The PTR owner name of an IP address (RFC 1035 §3.5 in-addr.arpa, RFC 3596 §2.5 ip6.arpa). */
import { parseIPv4 } from '../../shared/email-auth/ipAddress.ts';
import { reversedIp } from '../../shared/email-auth/reversedIp.ts';

/** `4.3.2.1.in-addr.arpa` for 1.2.3.4, the 32 reversed nibbles under ip6.arpa for IPv6; null when not an IP. */
export function reverseDnsName(ip: string): string | null {
  const reversed = reversedIp(ip);
  if (reversed === null) return null;
  return `${reversed}.${parseIPv4(ip) ? 'in-addr' : 'ip6'}.arpa`;
}
