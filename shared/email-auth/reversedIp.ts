/**
 * An IP address written backwards for DNS: the reversed octets of IPv4, the 32 reversed nibbles of IPv6. The
 * same name sits under in-addr.arpa/ip6.arpa for reverse DNS (RFC 1035 §3.5, RFC 3596 §2.5) and under a
 * blocklist's zone for a DNSBL query (RFC 5782 §2.1, §2.4).
 */
import { parseIPv4, parseIPv6 } from './ipAddress.ts';

/** `4.3.2.1` for 1.2.3.4, the reversed nibbles for IPv6; null when `ip` is not an IP address. */
export function reversedIp(ip: string): string | null {
  const v4 = parseIPv4(ip);
  if (v4) return [...v4].reverse().join('.');
  const v6 = parseIPv6(ip);
  if (!v6) return null;
  return v6
    .flatMap((group) => group.toString(16).padStart(4, '0').split(''))
    .reverse()
    .join('.');
}
