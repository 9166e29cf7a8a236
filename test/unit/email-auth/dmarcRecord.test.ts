import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asLooseResolver,
  createStaticResolver,
  type LooseDnsResolve,
} from '../../../shared/email-auth/dns.ts';
import {
  buildDmarcRecord,
  DMARC_POLICIES,
  effectiveDmarcPolicy,
  parseDmarcRecord,
  policyStrength,
  validateDmarcTags,
  type DmarcRecord,
} from '../../../shared/email-auth/dmarcRecord.ts';

const require = createRequire(import.meta.url);
const getDmarcRecord = require('mailauth/lib/dmarc/get-dmarc-record.js') as (
  domain: string,
  resolver: LooseDnsResolve,
) => Promise<Record<string, unknown> | false>;

const fields = (issues: { field: string }[]) => issues.map((i) => i.field);

describe('parseDmarcRecord', () => {
  it('parses a full record into typed tags', () => {
    const r = parseDmarcRecord(
      'v=DMARC1; p=quarantine; sp=reject; pct=50; adkim=s; aspf=r; rua=mailto:agg@example.com,mailto:x@rep.example.net!10m; ruf=mailto:f@example.com; fo=1:d; rf=afrf; ri=3600',
    );
    expect(r.ok).toBe(true);
    expect(r.errors).toEqual([]);
    expect(r.value).toEqual({
      v: 'DMARC1',
      p: 'quarantine',
      sp: 'reject',
      pct: 50,
      adkim: 's',
      aspf: 'r',
      rua: ['mailto:agg@example.com', 'mailto:x@rep.example.net!10m'],
      ruf: ['mailto:f@example.com'],
      fo: ['1', 'd'],
      rf: ['afrf'],
      ri: 3600,
    });
  });

  it('tolerates spaces, case in tag names and policy values, and a trailing semicolon', () => {
    const r = parseDmarcRecord('  v = DMARC1 ;P=Reject;  ADKIM = S ; ');
    expect(r.ok).toBe(true);
    expect(r.value).toEqual({ v: 'DMARC1', p: 'reject', adkim: 's' });
  });

  it('requires v=DMARC1 first and exactly', () => {
    expect(fields(parseDmarcRecord('p=none; v=DMARC1').errors)).toEqual(['v', 'v']);
    const lower = parseDmarcRecord('v=dmarc1; p=none');
    expect(lower.ok).toBe(false);
    expect(lower.errors[0]?.message).toMatch(/exactly DMARC1/);
    expect(parseDmarcRecord('v=spf1 -all').ok).toBe(false);
  });

  it('requires p', () => {
    const r = parseDmarcRecord('v=DMARC1; rua=mailto:a@example.com');
    expect(r.ok).toBe(false);
    expect(r.value).toBeNull();
    expect(r.errors).toEqual([{ field: 'p', message: expect.stringMatching(/required/) }]);
  });

  it('reports each bad value against its own tag', () => {
    const r = parseDmarcRecord(
      'v=DMARC1; p=block; sp=; pct=101; adkim=x; aspf=relaxed; rua=https://example.com/r; ruf=mailto:not-an-address; fo=2; rf=iodef; ri=-5',
    );
    expect(r.ok).toBe(false);
    expect(fields(r.errors).sort()).toEqual(
      ['adkim', 'aspf', 'fo', 'p', 'pct', 'rf', 'ri', 'rua', 'ruf', 'sp'].sort(),
    );
    expect(r.errors.find((e) => e.field === 'rua')?.message).toMatch(/mailto/);
  });

  it('rejects duplicated tags and pairs without "="', () => {
    expect(parseDmarcRecord('v=DMARC1; p=none; p=reject').errors).toEqual([
      { field: 'p', message: 'tag p appears more than once' },
    ]);
    expect(fields(parseDmarcRecord('v=DMARC1; p=none; garbage').errors)).toEqual(['garbage']);
  });

  it('keeps unknown tags as warnings, not errors', () => {
    const r = parseDmarcRecord('v=DMARC1; p=none; np=reject; t=y');
    expect(r.ok).toBe(true);
    expect(fields(r.warnings)).toEqual(['np', 't']);
  });

  it('validates mailto size limits and percent-escapes', () => {
    expect(parseDmarcRecord('v=DMARC1; p=none; rua=mailto:a%2Bdmarc@example.com!5g').ok).toBe(true);
    expect(parseDmarcRecord('v=DMARC1; p=none; rua=mailto:a@example.com!big').ok).toBe(false);
    expect(parseDmarcRecord('v=DMARC1; p=none; rua=mailto:a%ZZ@example.com').ok).toBe(false);
  });

  it('warns about fo without ruf and about more than two report addresses', () => {
    const r = parseDmarcRecord(
      'v=DMARC1; p=none; fo=1; rua=mailto:a@x.example,mailto:b@x.example,mailto:c@x.example',
    );
    expect(r.ok).toBe(true);
    expect(fields(r.warnings)).toEqual(['fo', 'rua']);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        const r = parseDmarcRecord(s);
        expect(r.ok).toBe(r.errors.length === 0);
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('v=DMARC1', 'p=none', ';', '=', 'rua=mailto:', 'pct=1', ' '), {
          maxLength: 12,
        }),
        (parts) => {
          parseDmarcRecord(parts.join(''));
        },
      ),
    );
  });
});

describe('validateDmarcTags', () => {
  it('accepts form input with lists and numbers', () => {
    const r = validateDmarcTags({
      p: 'reject',
      pct: 100,
      rua: ['mailto:a@example.com'],
      fo: ['1'],
      ruf: 'mailto:f@example.com',
    });
    expect(r.ok).toBe(true);
    expect(r.value).toEqual({
      v: 'DMARC1',
      p: 'reject',
      pct: 100,
      rua: ['mailto:a@example.com'],
      ruf: ['mailto:f@example.com'],
      fo: ['1'],
    });
  });

  it('returns per-field errors, with list items indexed', () => {
    const r = validateDmarcTags({
      p: 'maybe',
      pct: 12.5,
      adkim: 3,
      rua: ['mailto:ok@example.com', 'ftp://x'],
    });
    expect(r.ok).toBe(false);
    expect(fields(r.errors).sort()).toEqual(['adkim', 'p', 'pct', 'rua[1]']);
  });

  it('treats empty values as unset but still requires p', () => {
    expect(validateDmarcTags({ p: '', sp: '', rua: [] }).errors).toEqual([
      { field: 'p', message: 'the policy p is required' },
    ]);
    expect(validateDmarcTags({ p: 'none', sp: '', rua: [] }).value).toEqual({ v: 'DMARC1', p: 'none' });
  });

  it('rejects a wrong version and warns on unknown keys', () => {
    expect(fields(validateDmarcTags({ v: 'DMARC2', p: 'none' }).errors)).toEqual(['v']);
    expect(fields(validateDmarcTags({ p: 'none', colour: 'blue' } as never).warnings)).toEqual(['colour']);
  });
});

describe('buildDmarcRecord', () => {
  it('writes tags in canonical order regardless of input order', () => {
    const record = {
      ri: 86400,
      rua: ['mailto:a@example.com', 'mailto:b@example.com'],
      fo: ['1', 's'],
      p: 'reject',
      v: 'DMARC1',
      sp: 'none',
    } as DmarcRecord;
    expect(buildDmarcRecord(record)).toBe(
      'v=DMARC1; p=reject; sp=none; rua=mailto:a@example.com,mailto:b@example.com; fo=1:s; ri=86400',
    );
  });

  it('round-trips through parse for any valid record', () => {
    const uri = fc
      .tuple(
        fc.stringMatching(/^[a-z0-9][a-z0-9.+_-]{0,10}[a-z0-9]$/),
        fc.constantFrom('example.com', 'rep.example.net'),
        fc.option(fc.constantFrom('!10m', '!500k', '!1')),
      )
      .filter(([local]) => !local.includes('..'))
      .map(([local, domain, size]) => `mailto:${local}@${domain}${size ?? ''}`);
    const record = fc.record(
      {
        v: fc.constant('DMARC1' as const),
        p: fc.constantFrom(...DMARC_POLICIES),
        sp: fc.constantFrom(...DMARC_POLICIES),
        pct: fc.integer({ min: 0, max: 100 }),
        adkim: fc.constantFrom('r' as const, 's' as const),
        aspf: fc.constantFrom('r' as const, 's' as const),
        rua: fc.array(uri, { minLength: 1, maxLength: 3 }),
        ruf: fc.array(uri, { minLength: 1, maxLength: 2 }),
        fo: fc.uniqueArray(fc.constantFrom('0', '1', 'd', 's'), { minLength: 1 }),
        rf: fc.constant<string[]>(['afrf']),
        ri: fc.integer({ min: 0, max: 4294967295 }),
      },
      { requiredKeys: ['v', 'p'] },
    );
    fc.assert(
      fc.property(record, (r) => {
        const parsed = parseDmarcRecord(buildDmarcRecord(r));
        expect(parsed.errors).toEqual([]);
        expect(parsed.value).toEqual(r);
      }),
    );
  });
});

describe('policy helpers', () => {
  it('orders none < quarantine < reject', () => {
    expect(policyStrength('none')).toBeLessThan(policyStrength('quarantine'));
    expect(policyStrength('quarantine')).toBeLessThan(policyStrength('reject'));
  });

  it('fills RFC defaults: sp follows p, pct 100, relaxed alignment, daily reports', () => {
    expect(effectiveDmarcPolicy({ v: 'DMARC1', p: 'quarantine' })).toEqual({
      v: 'DMARC1',
      p: 'quarantine',
      sp: 'quarantine',
      pct: 100,
      adkim: 'r',
      aspf: 'r',
      rua: [],
      ruf: [],
      fo: ['0'],
      rf: ['afrf'],
      ri: 86400,
    });
  });
});

describe('agreement with mailauth', () => {
  const records = [
    'v=DMARC1; p=reject; sp=quarantine; pct=30; rua=mailto:a@example.com',
    'v=DMARC1;p=none;adkim=s;aspf=s;ri=3600',
    'v=DMARC1; p=quarantine; rua=mailto:a@example.com,mailto:b@example.org; ruf=mailto:f@example.com; fo=1',
  ];
  it.each(records)('reads the same policy values as mailauth from %s', async (record) => {
    const resolver = createStaticResolver({ '_dmarc.example.com': { TXT: [record, 'unrelated text'] } });
    const theirs = await getDmarcRecord('example.com', asLooseResolver(resolver));
    const ours = parseDmarcRecord(record);
    expect(theirs).not.toBe(false);
    expect(ours.ok).toBe(true);
    const t = theirs as Record<string, string | number>;
    expect(ours.value?.p).toBe(t.p);
    expect(ours.value?.sp).toBe(t.sp);
    expect(ours.value?.pct).toBe(t.pct);
    expect(ours.value?.adkim).toBe(t.adkim);
    expect(ours.value?.ri).toBe(t.ri);
    expect(ours.value?.rua?.join(',')).toBe(t.rua);
  });
});
