import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatNetwork,
  ipFamily,
  parseIpNetwork,
  parseIPv6,
  formatIPv6,
} from '../../../shared/email-auth/ipAddress.ts';

describe('ipAddress', () => {
  it('agrees with node:net on which strings are addresses', () => {
    const samples = [
      '192.0.2.1',
      '255.255.255.255',
      '256.1.1.1',
      '1.2.3',
      '::',
      '::1',
      '2001:db8::',
      '1::2::3',
      '::ffff:192.0.2.1',
      '2001:db8:0:0:0:0:0:1:2',
      'gggg::1',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:1.2.3.4',
      '',
    ];
    for (const s of samples) expect([s, ipFamily(s) ?? 0]).toEqual([s, isIP(s)]);
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (ip) => {
        expect(ipFamily(ip)).toBe(isIP(ip));
      }),
    );
  });

  it('rejects IPv4 octets with leading zeros (RFC 7208 qnum) and IPv6 zone ids, which records cannot carry', () => {
    expect(ipFamily('192.000.2.1')).toBeNull();
    expect(ipFamily('fe80::1%eth0')).toBeNull();
  });

  it('writes IPv6 in RFC 5952 form', () => {
    expect(formatIPv6(parseIPv6('2001:0DB8:0000:0000:0000:ff00:0042:8329')!)).toBe('2001:db8::ff00:42:8329');
    expect(formatIPv6(parseIPv6('2001:db8:0:1:0:0:0:1')!)).toBe('2001:db8:0:1::1');
    expect(formatIPv6(parseIPv6('2001:db8:0:1:1:1:1:1')!)).toBe('2001:db8:0:1:1:1:1:1');
    expect(formatIPv6(parseIPv6('::ffff:192.0.2.1')!)).toBe('::ffff:c000:201');
  });

  it('canonicalises networks and clears host bits', () => {
    const net = (s: string) => {
      const r = parseIpNetwork(s);
      return 'network' in r ? formatNetwork(r.network) : r.error;
    };
    expect(net('192.0.2.77/24')).toBe('192.0.2.0/24');
    expect(net('192.0.2.77/32')).toBe('192.0.2.77');
    expect(net('10.1.2.3/0')).toBe('0.0.0.0/0');
    expect(net('2001:DB8::1/32')).toBe('2001:db8::/32');
    expect(net('2001:db8::1/128')).toBe('2001:db8::1');
    expect(net('192.0.2.1/33')).toMatch(/prefix length/);
    expect(net('192.0.2.1/024')).toMatch(/prefix length/);
    expect(parseIpNetwork('2001:db8::1', 4)).toHaveProperty('error');
  });
});
