import { promises as nodeDns } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  createStaticResolver,
  dnsErrorCode,
  isVoidAnswer,
  type DnsResolve,
} from '../../../shared/email-auth/dns.ts';
import {
  recordLocation,
  recordName,
  isProtocol,
  PROTOCOLS,
  mtaStsPolicyUrl,
} from '../../../shared/email-auth/protocols.ts';
import { lookupPublishedRecord } from '../../../shared/email-auth/publishedRecord.ts';

const zone = createStaticResolver({
  'example.com': {
    TXT: ['v=spf1 include:_spf.example.net -all', 'google-site-verification=abc'],
    MX: [{ exchange: 'mx1.example.com', priority: 10 }],
    A: ['192.0.2.1'],
  },
  '_dmarc.example.com': { TXT: [['v=DMARC1; p=reject; ', 'rua=mailto:d@example.com']] },
  '_mta-sts.example.com': { TXT: ['v=STSv1; id=1', 'v=STSv1; id=2'] },
  '_smtp._tls.example.com': { error: 'ETIMEOUT' },
  'default._bimi.example.com': { CNAME: ['bimi.example.net'] },
  'long.example.com': { TXT: ['v=spf1 ' + 'ip4:192.0.2.1 '.repeat(30) + '-all'] },
});

describe('protocols', () => {
  it('publishes each protocol at its RFC name', () => {
    expect(PROTOCOLS.map((p) => recordName(p, 'Example.COM.'))).toEqual([
      '_dmarc.example.com',
      'example.com',
      '_mta-sts.example.com',
      '_smtp._tls.example.com',
      'default._bimi.example.com',
    ]);
    expect(recordName('bimi', 'example.com', 'brand')).toBe('brand._bimi.example.com');
    expect(mtaStsPolicyUrl('example.com')).toBe('https://mta-sts.example.com/.well-known/mta-sts.txt');
    expect(isProtocol('mta_sts')).toBe(true);
    expect(isProtocol('mta-sts')).toBe(false);
  });

  it('recognises a record by its version tag only', () => {
    const spf = recordLocation('spf', 'example.com').selector;
    expect(spf.test('v=spf1 -all')).toBe(true);
    expect(spf.test('v=spf1')).toBe(true);
    expect(spf.test('v=spf10 -all')).toBe(false);
    const dmarc = recordLocation('dmarc', 'example.com').selector;
    expect(dmarc.test('v=DMARC1; p=none')).toBe(true);
    expect(dmarc.test('v=DMARC10; p=none')).toBe(false);
  });
});

describe('static resolver', () => {
  it('answers in the shapes of node dns.promises.resolve', async () => {
    expect(await zone('example.com', 'MX')).toEqual([{ exchange: 'mx1.example.com', priority: 10 }]);
    expect(await zone('EXAMPLE.com.', 'A')).toEqual(['192.0.2.1']);
    const long = await zone('long.example.com', 'TXT');
    expect(long).toHaveLength(1);
    expect(long[0]!.every((s) => s.length <= 255)).toBe(true);
    expect(long[0]!.join('')).toMatch(/^v=spf1 .* -all$/);
  });

  it('rejects with ENOTFOUND, ENODATA and simulated failures', async () => {
    await expect(zone('nope.example.com', 'A')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(zone('example.com', 'AAAA')).rejects.toMatchObject({ code: 'ENODATA' });
    const err = await zone('_smtp._tls.example.com', 'TXT').catch((e: unknown) => e);
    expect(dnsErrorCode(err)).toBe('ETIMEOUT');
    expect(isVoidAnswer(err)).toBe(false);
    expect(zone.queries.at(-1)).toEqual({ name: '_smtp._tls.example.com', rrtype: 'TXT' });
  });

  it('has the same type as node resolve', () => {
    const asNode: DnsResolve = nodeDns.resolve;
    expect(typeof asNode).toBe('function');
  });
});

describe('lookupPublishedRecord', () => {
  it('finds the one record carrying the version tag and joins its strings', async () => {
    const dmarc = await lookupPublishedRecord('dmarc', 'example.com', zone);
    expect(dmarc).toMatchObject({ status: 'found', record: 'v=DMARC1; p=reject; rua=mailto:d@example.com' });
    const spf = await lookupPublishedRecord('spf', 'example.com', zone);
    expect(spf.record).toBe('v=spf1 include:_spf.example.net -all');
  });

  it('distinguishes missing, multiple and failing lookups', async () => {
    expect((await lookupPublishedRecord('mta_sts', 'example.com', zone)).status).toBe('multiple');
    expect((await lookupPublishedRecord('bimi', 'example.com', zone)).status).toBe('missing');
    expect((await lookupPublishedRecord('dmarc', 'other.example', zone)).status).toBe('missing');
    expect(await lookupPublishedRecord('tls_rpt', 'example.com', zone)).toMatchObject({
      status: 'dns_error',
      error_code: 'ETIMEOUT',
    });
  });
});
