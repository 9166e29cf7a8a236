import fc from 'fast-check';
import { spf as mailauthSpf } from 'mailauth/lib/spf';
import { describe, expect, it } from 'vitest';
import {
  asLooseResolver,
  createStaticResolver,
  type StaticZoneEntry,
} from '../../../shared/email-auth/dns.ts';
import { flattenSpf } from '../../../shared/email-auth/spfFlatten.ts';
import { parseSpfRecord } from '../../../shared/email-auth/spfRecord.ts';

const codes = (issues: { code: string }[]) => issues.map((i) => i.code);

const zone: Record<string, StaticZoneEntry> = {
  'example.com': {
    TXT: ['v=spf1 ip4:192.0.2.10 a mx include:_spf.example.net -ip4:198.51.100.66 ~all', 'other=text'],
    A: ['192.0.2.1'],
    AAAA: ['2001:db8::1'],
    MX: [
      { exchange: 'mx2.example.com', priority: 20 },
      { exchange: 'mx1.example.com', priority: 10 },
    ],
  },
  'mx1.example.com': { A: ['192.0.2.21'] },
  'mx2.example.com': { A: ['192.0.2.22'], AAAA: ['2001:DB8:0:0::22'] },
  '_spf.example.net': { TXT: ['v=spf1 ip4:203.0.113.0/24 include:_spf2.example.net -all'] },
  '_spf2.example.net': {
    TXT: ['v=spf1 ip6:2001:db8:1::/48 ip4:203.0.113.7 ip4:192.0.2.10 a:host.example.net/28 ?all'],
  },
  'host.example.net': { A: ['198.51.100.70'] },
  'redirect.example': { TXT: ['v=spf1 ip4:192.0.2.5 redirect=_spf.example.net'] },
  'loop1.example': { TXT: ['v=spf1 ip4:192.0.2.1 include:loop2.example -all'] },
  'loop2.example': { TXT: ['v=spf1 include:loop1.example -all'] },
  'voids.example': { TXT: ['v=spf1 a:nx1.example a:nx2.example mx:nx3.example ip4:192.0.2.1 -all'] },
  'twovoids.example': { TXT: ['v=spf1 a:nx1.example mx:nx3.example ip4:192.0.2.1 -all'] },
  'eleven.example': {
    TXT: [
      'v=spf1 ' + Array.from({ length: 11 }, (_, i) => `include:s${i}.eleven.example`).join(' ') + ' -all',
    ],
  },
  ...Object.fromEntries(
    Array.from({ length: 11 }, (_, i) => [
      `s${i}.eleven.example`,
      { TXT: [`v=spf1 ip4:10.0.${i}.0/24 -all`] },
    ]),
  ),
  'bigmx.example': {
    TXT: ['v=spf1 mx -all'],
    MX: Array.from({ length: 11 }, (_, i) => ({ exchange: `m${i}.bigmx.example`, priority: i })),
  },
  ...Object.fromEntries(
    Array.from({ length: 11 }, (_, i) => [`m${i}.bigmx.example`, { A: [`192.0.2.${100 + i}`] }]),
  ),
  'macro.example': {
    TXT: ['v=spf1 ip4:192.0.2.1 exists:%{i}._spf.macro.example ptr include:%{d}.x.example -all'],
  },
  'soft.example': { TXT: ['v=spf1 ~include:_spf.example.net -include:deny.example ip4:192.0.2.9 -all'] },
  'deny.example': { TXT: ['v=spf1 ip4:192.0.2.9 -all'] },
  'negative.example': { TXT: ['v=spf1 include:neg-inner.example -all'] },
  'neg-inner.example': { TXT: ['v=spf1 -ip4:192.0.2.66 ip4:192.0.2.0/24 -all'] },
  'missing-include.example': { TXT: ['v=spf1 include:nothing.example -all'] },
  'nothing.example': { A: ['192.0.2.1'] },
  'badsyntax.example': { TXT: ['v=spf1 include:bad-inner.example -all'] },
  'bad-inner.example': { TXT: ['v=spf1 ip4:300.1.1.1 -all'] },
  'two.example': { TXT: ['v=spf1 -all', 'v=spf1 ~all'] },
  'timeout.example': { TXT: ['v=spf1 include:slow.example -all'] },
  'slow.example': { error: 'ETIMEOUT' },
  'nullmx.example': { TXT: ['v=spf1 mx -all'], MX: [{ exchange: '.', priority: 0 }] },
};
const resolve = createStaticResolver(zone);

describe('flattenSpf', () => {
  it('resolves nested includes, a and mx into deduplicated ip4/ip6 terms, keeping order and qualifiers', async () => {
    const r = await flattenSpf('Example.com', resolve);
    expect(r.status).toBe('ok');
    expect(r.errors).toEqual([]);
    expect(r.ipv4).toEqual([
      '192.0.2.10',
      '192.0.2.1',
      '192.0.2.21',
      '192.0.2.22',
      '203.0.113.0/24',
      '203.0.113.7',
      '198.51.100.64/28',
    ]);
    expect(r.ipv6).toEqual(['2001:db8::1', '2001:db8::22', '2001:db8:1::/48']);
    expect(r.flattened_record).toBe(
      'v=spf1 ip4:192.0.2.10 ip4:192.0.2.1 ip4:192.0.2.21 ip4:192.0.2.22 ip4:203.0.113.0/24 ip4:203.0.113.7 ip4:198.51.100.64/28 -ip4:198.51.100.66 ip6:2001:db8::1 ip6:2001:db8::22 ip6:2001:db8:1::/48 ~all',
    );
    expect(r).toMatchObject({
      lookup_count: 5,
      lookup_limit: 10,
      void_lookup_count: 0,
      void_lookup_limit: 2,
      within_limit: true,
      all: '~all',
    });
    expect(r.records.map((x) => x.domain)).toEqual(['example.com', '_spf.example.net', '_spf2.example.net']);
    expect(parseSpfRecord(r.flattened_record!).value?.lookup_terms).toBe(0);
  });

  it('follows redirect and takes its all', async () => {
    const r = await flattenSpf('redirect.example', resolve);
    expect(r.all).toBe('-all');
    expect(r.lookup_count).toBe(3);
    expect(r.flattened_record).toMatch(/^v=spf1 ip4:192\.0\.2\.5 ip4:203\.0\.113\.0\/24 .* -all$/);
  });

  it('detects include loops as permerror without a flattened record', async () => {
    const r = await flattenSpf('loop1.example', resolve);
    expect(r.status).toBe('permerror');
    expect(codes(r.errors)).toEqual(['loop']);
    expect(r.errors[0]?.message).toMatch(/loop1\.example → loop2\.example → loop1\.example/);
    expect(r.flattened_record).toBeNull();
  });

  it('counts 11 lookups, reports permerror, and still offers the flattened record that fixes it', async () => {
    const r = await flattenSpf('eleven.example', resolve);
    expect(r).toMatchObject({ lookup_count: 11, within_limit: false, status: 'permerror' });
    expect(codes(r.errors)).toEqual(['too_many_lookups']);
    expect(r.ipv4).toHaveLength(11);
    expect(parseSpfRecord(r.flattened_record!).ok).toBe(true);
  });

  it('allows two void lookups and fails on the third', async () => {
    const two = await flattenSpf('twovoids.example', resolve);
    expect(two).toMatchObject({ void_lookup_count: 2, within_limit: true, status: 'ok' });
    expect(codes(two.warnings)).toContain('void_lookup');
    const three = await flattenSpf('voids.example', resolve);
    expect(three).toMatchObject({
      void_lookup_count: 3,
      lookup_count: 3,
      within_limit: false,
      status: 'permerror',
    });
    expect(codes(three.errors)).toEqual(['too_many_void_lookups']);
  });

  it('looks up at most 10 MX names and flags more as permerror', async () => {
    const r = await flattenSpf('bigmx.example', resolve);
    expect(codes(r.errors)).toEqual(['mx_too_many']);
    expect(r.ipv4).toHaveLength(10);
    expect(r.ipv4).not.toContain('192.0.2.110');
    expect(r.lookup_count).toBe(1);
    const nullMx = await flattenSpf('nullmx.example', resolve);
    expect(nullMx).toMatchObject({ status: 'ok', ipv4: [], flattened_record: 'v=spf1 -all' });
  });

  it('keeps terms that need the message (macros, ptr, exists) and counts their lookups', async () => {
    const r = await flattenSpf('macro.example', resolve);
    expect(r.kept_terms).toEqual(['exists:%{i}._spf.macro.example', 'ptr', 'include:%{d}.x.example']);
    expect(r.lookup_count).toBe(3);
    expect(r.flattened_record).toBe(
      'v=spf1 ip4:192.0.2.1 exists:%{i}._spf.macro.example ptr include:%{d}.x.example -all',
    );
  });

  it('carries the qualifier of a top-level include onto its addresses', async () => {
    const r = await flattenSpf('soft.example', resolve);
    expect(r.flattened_record).toMatch(/^v=spf1 ~ip4:203\.0\.113\.0\/24 .*-ip4:192\.0\.2\.9 .*-all$/);
    // Only pass-qualified networks are listed as authorized senders.
    expect(r.ipv4).toEqual([]);
  });

  it('warns that negative terms inside an include cannot be flattened exactly', async () => {
    const r = await flattenSpf('negative.example', resolve);
    expect(codes(r.warnings)).toContain('negative_in_include');
    expect(r.ipv4).toEqual(['192.0.2.0/24']);
  });

  it('distinguishes no record, broken includes, multiple records and DNS failures', async () => {
    expect(await flattenSpf('nowhere.example', resolve)).toMatchObject({
      status: 'none',
      record: null,
      flattened_record: null,
    });
    const missing = await flattenSpf('missing-include.example', resolve);
    expect(missing).toMatchObject({ status: 'permerror', flattened_record: null, void_lookup_count: 1 });
    expect(codes(missing.errors)).toEqual(['no_record']);
    const syntax = await flattenSpf('badsyntax.example', resolve);
    expect(codes(syntax.errors)).toEqual(['syntax']);
    expect(syntax.errors[0]?.message).toMatch(/300\.1\.1\.1/);
    expect(codes((await flattenSpf('two.example', resolve)).errors)).toEqual(['multiple_records']);
    expect(await flattenSpf('timeout.example', resolve)).toMatchObject({
      status: 'temperror',
      flattened_record: null,
    });
  });

  it('stops on hostile trees', async () => {
    const r = await flattenSpf('eleven.example', resolve, { maxQueries: 5 });
    expect(codes(r.errors)).toContain('too_complex');
  });
});

describe('agreement with mailauth SPF evaluation', () => {
  // An address no record authorizes makes mailauth evaluate every term, so its lookup count is the whole tree's.
  const probe = (domain: string, resolver = resolve) =>
    mailauthSpf({
      sender: `probe@${domain}`,
      ip: '100.64.7.7',
      mta: 'mx.test',
      resolver: asLooseResolver(resolver),
    });

  it.each(['example.com', 'redirect.example', 'twovoids.example'])(
    'counts the same lookups and voids for %s',
    async (domain) => {
      const ours = await flattenSpf(domain, resolve);
      const theirs = await probe(domain);
      expect(theirs.lookups).toMatchObject({ count: ours.lookup_count, void: ours.void_lookup_count });
    },
  );

  it.each(['eleven.example', 'voids.example', 'loop1.example'])(
    'agrees that %s is a permerror',
    async (domain) => {
      expect((await probe(domain)).status.result).toBe('permerror');
      expect((await flattenSpf(domain, resolve)).status).toBe('permerror');
    },
  );

  it('agrees on lookup counts for random include trees', async () => {
    const tree = fc.array(
      fc.array(fc.constantFrom('ip4', 'a', 'mx', 'include', 'include'), { maxLength: 4 }),
      { minLength: 1, maxLength: 6 },
    );
    await fc.assert(
      fc.asyncProperty(tree, async (records) => {
        const z: Record<string, StaticZoneEntry> = {
          'host.rnd.example': { A: ['192.0.2.1'] },
          'mail.rnd.example': { MX: [{ exchange: 'host.rnd.example', priority: 1 }] },
        };
        records.forEach((kinds, i) => {
          const terms = kinds.map((k, j) => {
            if (k === 'ip4') return `ip4:198.51.100.${j}`;
            if (k === 'a') return 'a:host.rnd.example';
            if (k === 'mx') return 'mx:mail.rnd.example';
            // Includes only point forward, so the tree has no loops; the last record includes nothing.
            return i + 1 < records.length
              ? `include:d${i + 1 + (j % (records.length - i - 1))}.rnd.example`
              : 'ip4:192.0.2.99';
          });
          z[`d${i}.rnd.example`] = { TXT: [`v=spf1 ${terms.join(' ')} -all`] };
        });
        const r = createStaticResolver(z);
        const ours = await flattenSpf('d0.rnd.example', r);
        const theirs = await probe('d0.rnd.example', r);
        if (ours.lookup_count <= 10) {
          expect(ours.status).toBe('ok');
          expect(theirs.lookups?.count).toBe(ours.lookup_count);
        } else {
          expect(theirs.status.result).toBe('permerror');
        }
      }),
      { numRuns: 60 },
    );
  });
});
