// The naming rule of report sources, piece by piece: PTR owner names, organisations of host names (public
// suffix list), the well-known sender networks at their edges, and the resolution order with forward
// confirmation, several PTR names and failing lookups.
import { describe, expect, it } from 'vitest';
import { createStaticResolver } from '../../../../shared/email-auth/dns.ts';
import { networkOwner } from '../../../../shared/email-auth/knownSenders.ts';
import { reverseDnsName } from '../../../../service/reports/reverseDnsName.ts';
import { nameSource, nameSources, organisationOfHost } from '../../../../service/reports/sourceNaming.ts';
import { SourceNameCache } from '../../../../service/reports/sourceNameCache.ts';
import { DnsError } from '../../../../shared/email-auth/dns.ts';
import type { DnsResolve } from '../../../../shared/email-auth/dns.ts';

describe('reverseDnsName', () => {
  it('reverses IPv4 octets under in-addr.arpa and IPv6 nibbles under ip6.arpa', () => {
    expect(reverseDnsName('192.0.2.10')).toBe('10.2.0.192.in-addr.arpa');
    expect(reverseDnsName('2001:db8::1')).toBe(
      '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
    );
    expect(reverseDnsName('mail.example')).toBeNull();
    expect(reverseDnsName('256.1.1.1')).toBeNull();
  });
});

describe('organisationOfHost', () => {
  it.each([
    ['mail-xyz.google.com', 'Google'],
    ['mail-sor-f41.google.com.', 'Google'],
    ['mail-eopbgr80041.outbound.protection.outlook.com', 'Microsoft'],
    ['a8-33.smtp-out.amazonses.com', 'Amazon SES'],
    ['o1.ptr2093.sendgrid.net', 'SendGrid'],
    ['mail112.suw101.mcdlv.net', 'Mailchimp'],
    ['relay.bulk-mailer.co.uk', 'bulk-mailer.co.uk'],
    ['MX1.Some-Company.COM', 'some-company.com'],
  ])('%s → %s', (host, name) => {
    expect(organisationOfHost(host)).toBe(name);
  });

  it('has no organisation for a bare label', () => {
    expect(organisationOfHost('localhost')).toBeNull();
  });
});

describe('networkOwner', () => {
  it('knows the edges of a network', () => {
    expect(networkOwner('209.85.128.0')).toBe('Google');
    expect(networkOwner('209.85.255.255')).toBe('Google');
    expect(networkOwner('209.85.127.255')).toBeNull();
    expect(networkOwner('2a01:111:f400::1')).toBe('Microsoft');
    expect(networkOwner('2a01:111:f402::1')).toBeNull();
    expect(networkOwner('54.240.27.11')).toBe('Amazon SES');
    expect(networkOwner('205.201.131.2')).toBe('Mailchimp');
    expect(networkOwner('not an address')).toBeNull();
  });
});

describe('nameSource', () => {
  it('takes the first PTR name that resolves back to the address', async () => {
    const resolver = createStaticResolver({
      '7.100.51.198.in-addr.arpa': { PTR: ['mail.spoofed-brand.example', 'mail-xyz.google.com'] },
      'mail-xyz.google.com': { A: ['198.51.100.7'] },
      'mail.spoofed-brand.example': { A: ['203.0.113.1'] },
    });
    expect(await nameSource(resolver, '198.51.100.7')).toBe('Google');
  });

  it('compares IPv6 addresses however they are written', async () => {
    const resolver = createStaticResolver({
      [reverseDnsName('2001:db8::25')!]: { PTR: ['out.mailer.example'] },
      'out.mailer.example': { AAAA: ['2001:0db8:0000:0000:0000:0000:0000:0025'] },
    });
    expect(await nameSource(resolver, '2001:DB8:0:0::25')).toBe('mailer.example');
  });

  it('moves on to the sender networks when reverse DNS fails, then to the address', async () => {
    const resolver = createStaticResolver({
      '41.220.85.209.in-addr.arpa': { error: 'ETIMEOUT' },
      '5.113.0.203.in-addr.arpa': { error: 'ESERVFAIL' },
    });
    expect(await nameSource(resolver, '209.85.220.41')).toBe('Google');
    expect(await nameSource(resolver, '203.0.113.5')).toBe('203.0.113.5');
  });

  it('names every distinct address once', async () => {
    const resolver = createStaticResolver({});
    const names = await nameSources(resolver, ['203.0.113.5', '167.89.1.2', '203.0.113.5']);
    expect(names).toEqual(
      new Map([
        ['167.89.1.2', 'SendGrid'],
        ['203.0.113.5', '203.0.113.5'],
      ]),
    );
    expect(resolver.queries.filter((q) => q.rrtype === 'PTR')).toHaveLength(2);
  });
});

describe('nameSources under slow or silent DNS', () => {
  /** Google's PTR for 209.85.220.41 answers; `silent` addresses never get an answer. */
  function resolverWith(
    silent: Set<string>,
    counts: { queries: number; inFlight: number; maxInFlight: number },
  ) {
    const zone = createStaticResolver({
      '41.220.85.209.in-addr.arpa': { PTR: ['mail-sor-f41.google.com'] },
      'mail-sor-f41.google.com': { A: ['209.85.220.41'] },
    });
    return (async (name: string, rrtype: 'PTR') => {
      counts.queries++;
      const ip = name.split('.').slice(0, 4).reverse().join('.');
      if (silent.has(ip)) return new Promise<never>(() => {});
      counts.inFlight++;
      counts.maxInFlight = Math.max(counts.maxInFlight, counts.inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      counts.inFlight--;
      return zone(name, rrtype);
    }) as DnsResolve;
  }
  const counts = () => ({ queries: 0, inFlight: 0, maxInFlight: 0 });

  it('names by address what DNS has not answered by the deadline, and keeps what it did', async () => {
    const silent = new Set(['203.0.113.9', '167.89.1.2']);
    const names = await nameSources(
      resolverWith(silent, counts()),
      ['209.85.220.41', '203.0.113.9', '167.89.1.2'],
      { concurrency: 4, deadlineMs: 200 },
      new SourceNameCache(),
    );
    expect(names).toEqual(
      new Map([
        ['209.85.220.41', 'Google'],
        ['203.0.113.9', '203.0.113.9'],
        ['167.89.1.2', 'SendGrid'],
      ]),
    );
  });

  it('looks addresses up in parallel, never more at once than the bound', async () => {
    const c = counts();
    const ips = Array.from({ length: 200 }, (_, i) => `198.51.100.${i}`);
    await nameSources(
      resolverWith(new Set(), c),
      ips,
      { concurrency: 16, deadlineMs: 10_000 },
      new SourceNameCache(),
    );
    expect(c.maxInFlight).toBe(16);
  });

  it('remembers definitive names by address across reports, and asks again after a DNS failure', async () => {
    const cache = new SourceNameCache();
    const c = counts();
    let failing = true;
    const zone = resolverWith(new Set(), c);
    const resolver = (async (name: string, rrtype: 'PTR') => {
      if (failing && name.startsWith('9.113.0.203')) throw new DnsError('ETIMEOUT', name, rrtype);
      return zone(name, rrtype);
    }) as DnsResolve;
    const bounds = { concurrency: 8, deadlineMs: 10_000 };
    await nameSources(resolver, ['209.85.220.41', '203.0.113.9', '198.51.100.1'], bounds, cache);
    const first = c.queries;
    expect(first).toBe(3); // PTR, A of the Google host, PTR of 198.51.100.1 (the timed-out PTR never reached the zone)
    failing = false;
    const again = await nameSources(
      resolver,
      ['198.51.100.1', '209.85.220.41', '203.0.113.9'],
      bounds,
      cache,
    );
    expect(again.get('209.85.220.41')).toBe('Google');
    expect(c.queries - first).toBe(1); // only the address whose lookup had timed out
  });
});
