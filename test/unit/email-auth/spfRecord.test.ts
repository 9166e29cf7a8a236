import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSpfRecord, parseSpfRecord, type SpfMechanism } from '../../../shared/email-auth/spfRecord.ts';

const fields = (issues: { field: string }[]) => issues.map((i) => i.field);

describe('parseSpfRecord', () => {
  it('parses every mechanism with its qualifier, domain and CIDR', () => {
    const r = parseSpfRecord(
      'v=spf1 +a -mx:mail.example.com/24//64 ~ip4:192.0.2.0/24 ?ip6:2001:DB8::/32 include:_spf.example.net exists:%{i}._ip.%{d} ptr:example.org redirect=_spf.example.com exp=explain.%{d} -all',
    );
    expect(r.ok).toBe(true);
    const m = r.value!.terms.filter((t): t is SpfMechanism => t.kind === 'mechanism');
    expect(m.map((t) => `${t.qualifier}${t.name}`)).toEqual([
      '+a',
      '-mx',
      '~ip4',
      '?ip6',
      '+include',
      '+exists',
      '+ptr',
      '-all',
    ]);
    expect(m[1]).toMatchObject({ domain: 'mail.example.com', cidr4: 24, cidr6: 64 });
    expect(m[3]?.network).toEqual({ family: 6, address: '2001:db8::', prefix: 32 });
    expect(m[5]?.macro).toBe(true);
    expect(r.value).toMatchObject({
      all: '-all',
      redirect: '_spf.example.com',
      exp: 'explain.%{d}',
      lookup_terms: 5,
    });
    // all is present, so redirect is never used.
    expect(fields(r.warnings)).toEqual(expect.arrayContaining(['redirect', 'ptr']));
  });

  it('counts a redirect as a lookup only when there is no all', () => {
    expect(parseSpfRecord('v=spf1 ip4:192.0.2.1 redirect=_spf.example.com').value?.lookup_terms).toBe(1);
    expect(parseSpfRecord('v=spf1 include:a.example -all include:b.example').value?.lookup_terms).toBe(1);
  });

  it('rejects what receivers would treat as permerror', () => {
    const bad = {
      'v=spf1 ip4:192.0.2.300 -all': 'ip4',
      'v=spf1 ip4:192.0.2.0/33 -all': 'ip4',
      'v=spf1 ip6:192.0.2.1 -all': 'ip6',
      'v=spf1 ip4 -all': 'ip4',
      'v=spf1 include -all': 'include',
      'v=spf1 include:bad_domain -all': 'include',
      'v=spf1 a:example.com/40 -all': 'a',
      'v=spf1 exists:%{z}.example.com -all': 'exists',
      'v=spf1 foo:bar -all': 'foo',
      'v=spf1 all:x': 'all',
      'v=spf1 redirect=a.example redirect=b.example': 'redirect',
      'v=spf1 ptr/24 -all': 'ptr',
    };
    for (const [record, field] of Object.entries(bad)) {
      const r = parseSpfRecord(record);
      expect([record, r.ok]).toEqual([record, false]);
      expect(fields(r.errors)).toContain(field);
    }
  });

  it('requires v=spf1 and flags more than 10 lookup terms', () => {
    expect(parseSpfRecord('v=spf2 -all').errors).toEqual([{ field: 'v', message: expect.any(String) }]);
    expect(parseSpfRecord('spf1 -all').ok).toBe(false);
    const eleven =
      'v=spf1 ' + Array.from({ length: 11 }, (_, i) => `include:s${i}.example.com`).join(' ') + ' -all';
    expect(fields(parseSpfRecord(eleven).errors)).toEqual(['lookups']);
  });

  it('warns about +all, a missing all and terms after all', () => {
    expect(
      parseSpfRecord('v=spf1 +all')
        .warnings.map((w) => w.message)
        .join(),
    ).toMatch(/every server/);
    expect(
      parseSpfRecord('v=spf1 ip4:192.0.2.1')
        .warnings.map((w) => w.message)
        .join(),
    ).toMatch(/neutral/);
    expect(
      parseSpfRecord('v=spf1 -all ip4:192.0.2.1')
        .warnings.map((w) => w.message)
        .join(),
    ).toMatch(/never evaluated/);
  });

  it('keeps unknown modifiers as warnings', () => {
    const r = parseSpfRecord('v=spf1 -all moo=cow.example');
    expect(r.ok).toBe(true);
    expect(fields(r.warnings)).toEqual(['moo']);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => void parseSpfRecord(s)));
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => void parseSpfRecord(`v=spf1 ${s}`)));
  });
});

describe('buildSpfRecord', () => {
  it('builds reject IPs first, then allowed IPs, includes and all', () => {
    const r = buildSpfRecord({
      includes: ['_spf.google.com', 'include:spf.protection.outlook.com'],
      ip4: ['192.0.2.10', '198.51.100.0/24'],
      ip6: ['2001:DB8::/32'],
      reject_ips: ['203.0.113.5', '2001:db8:bad::1'],
      all: '-all',
    });
    expect(r.errors).toEqual([]);
    expect(r.value).toBe(
      'v=spf1 -ip4:203.0.113.5 -ip6:2001:db8:bad::1 ip4:192.0.2.10 ip4:198.51.100.0/24 ip6:2001:db8::/32 include:_spf.google.com include:spf.protection.outlook.com -all',
    );
  });

  it('reports bad parts by field and index and returns no record', () => {
    const r = buildSpfRecord({
      ip4: ['192.0.2.1', '10.0.0.0/99'],
      ip6: ['192.0.2.1'],
      includes: ['not a domain'],
      all: '*all' as never,
    });
    expect(r.ok).toBe(false);
    expect(r.value).toBeNull();
    expect(fields(r.errors)).toEqual(['ip4[1]', 'ip6[0]', 'includes[0]', 'all']);
  });

  it('drops duplicates with a warning and refuses redirect together with all', () => {
    const r = buildSpfRecord({ ip4: ['192.0.2.1', '192.0.2.1/32'], all: '~all' });
    expect(r.value).toBe('v=spf1 ip4:192.0.2.1 ~all');
    expect(fields(r.warnings)).toEqual(['ip4[1]']);
    expect(fields(buildSpfRecord({ redirect: '_spf.example.com', all: '-all' }).errors)).toEqual([
      'redirect',
    ]);
  });

  it('refuses a record that would exceed 10 lookups', () => {
    const r = buildSpfRecord({
      includes: Array.from({ length: 11 }, (_, i) => `s${i}.example.com`),
      all: '-all',
    });
    expect(r.ok).toBe(false);
    expect(fields(r.errors)).toEqual(['lookups']);
  });

  it('round-trips: what is built parses back to the same networks, includes and all', () => {
    const parts = fc.record({
      ip4: fc.array(fc.ipV4(), { maxLength: 5 }),
      ip6: fc.array(fc.ipV6(), { maxLength: 3 }),
      includes: fc.uniqueArray(fc.domain(), { maxLength: 8 }),
      all: fc.constantFrom('-all' as const, '~all' as const, '?all' as const),
    });
    fc.assert(
      fc.property(parts, (p) => {
        const built = buildSpfRecord(p);
        expect(built.errors).toEqual([]);
        const parsed = parseSpfRecord(built.value!);
        expect(parsed.errors).toEqual([]);
        const mechs = parsed.value!.terms.filter((t): t is SpfMechanism => t.kind === 'mechanism');
        expect(mechs.filter((m) => m.name === 'include').map((m) => m.domain)).toEqual([
          ...new Set(p.includes.map((d) => d.toLowerCase())),
        ]);
        expect(new Set(mechs.filter((m) => m.name === 'ip4').map((m) => m.network?.address))).toEqual(
          new Set(p.ip4),
        );
        expect(mechs.filter((m) => m.name === 'ip6').length).toBe(
          new Set(mechs.filter((m) => m.name === 'ip6').map((m) => m.network?.address)).size,
        );
        expect(parsed.value!.all).toBe(p.all);
      }),
    );
  });
});
