import { describe, expect, it } from 'vitest';
import { dnsblQueryName, readDnsblAnswer } from '../../../../main/core/livechecks/dnsblAnswer.ts';
import { dnsblZone, KNOWN_DNSBL_ZONES } from '../../../../shared/email-auth/dnsblZones.ts';
import type { Lookup } from '../../../../main/core/dnswatch/watchResolver.ts';

const records = (...values: string[]): Lookup => ({
  kind: 'records',
  values: values.map((v) => [v]),
  ttl: 60,
  cnames: [],
  server: '127.0.0.1:53',
});
const absent: Lookup = { kind: 'absent', rcode: 'NXDOMAIN', ttl: 60, cnames: [], server: '127.0.0.1:53' };
const spamhaus = dnsblZone('zen.spamhaus.org');

describe('dnsblQueryName (RFC 5782)', () => {
  it('reverses IPv4 octets and IPv6 nibbles under the zone', () => {
    expect(dnsblQueryName('192.0.2.99', 'bl.example')).toBe('99.2.0.192.bl.example');
    expect(dnsblQueryName('2001:db8:1:2::1', 'bl.example')).toBe(
      '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.2.0.0.0.1.0.0.0.8.b.d.0.1.0.0.2.bl.example',
    );
    expect(() => dnsblQueryName('mx.example.com', 'bl.example')).toThrow(/not an IP address/);
  });
});

describe('readDnsblAnswer', () => {
  it('a 127.0.0.0/8 answer is a listing with the TXT reason; NXDOMAIN is clear', () => {
    const txt: Lookup = {
      ...(records() as Extract<Lookup, { kind: 'records' }>),
      values: [['Listed: spam trap hits, ', 'see https://bl.example/99']],
    };
    expect(readDnsblAnswer(spamhaus, records('127.0.0.2'), txt)).toEqual({
      kind: 'listed',
      codes: ['127.0.0.2'],
      reason: 'Listed: spam trap hits, see https://bl.example/99',
    });
    expect(readDnsblAnswer(spamhaus, absent, null)).toEqual({ kind: 'clear' });
  });

  it("the zone's documented refused codes are errors in its words, not listings", () => {
    const verdict = readDnsblAnswer(spamhaus, records('127.255.255.254'), null);
    expect(verdict.kind).toBe('error');
    expect(verdict.kind === 'error' && verdict.why).toContain('public or open resolvers');
    expect(readDnsblAnswer(spamhaus, records('127.255.255.255'), null).kind).toBe('error');
  });

  it('an answer outside 127.0.0.0/8 is an error (a resolver rewriting NXDOMAIN), not a listing', () => {
    const verdict = readDnsblAnswer(dnsblZone('bl.example'), records('198.51.100.7'), null);
    expect(verdict).toEqual({ kind: 'error', why: expect.stringContaining('outside 127.0.0.0/8') });
  });

  it('a resolver that does not answer says nothing', () => {
    expect(readDnsblAnswer(spamhaus, { kind: 'unknown', reason: 'timeout', server: 'x' }, null).kind).toBe(
      'unknown',
    );
  });

  it('every well-known zone has its terms in words, and none is chosen by default', () => {
    for (const zone of KNOWN_DNSBL_ZONES) expect(zone.terms.length).toBeGreaterThan(20);
    expect(dnsblZone('Custom.BL.example.').zone).toBe('custom.bl.example');
  });
});
