import fc from 'fast-check';
import {
  parsePolicy as mailauthParsePolicy,
  resolvePolicy as mailauthResolvePolicy,
} from 'mailauth/lib/mta-sts';
import { describe, expect, it } from 'vitest';
import { asLooseResolver, createStaticResolver } from '../../../shared/email-auth/dns.ts';
import {
  buildMtaStsRecord,
  formatMtaStsPolicy,
  mtaStsPolicyId,
  mxMatchesPattern,
  parseMtaStsPolicy,
  parseMtaStsRecord,
  validateMtaStsPolicy,
} from '../../../shared/email-auth/mtaStsPolicy.ts';

const fields = (issues: { field: string }[]) => issues.map((i) => i.field);

describe('MTA-STS policy file', () => {
  it('parses the RFC 8461 example with CRLF or LF lines', () => {
    const text =
      'version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmx: *.example.net\r\nmx: backupmx.example.com\r\nmax_age: 604800\r\n';
    const expected = {
      version: 'STSv1',
      mode: 'enforce',
      mx: ['mail.example.com', '*.example.net', 'backupmx.example.com'],
      max_age: 604800,
    };
    expect(parseMtaStsPolicy(text)).toMatchObject({ ok: true, value: expected, errors: [] });
    expect(parseMtaStsPolicy(text.replace(/\r\n/g, '\n')).value).toEqual(expected);
  });

  it('formats with CRLF line endings and round-trips', () => {
    const policy = {
      version: 'STSv1' as const,
      mode: 'testing' as const,
      mx: ['mx1.example.com', '*.mx.example.com'],
      max_age: 86400,
    };
    const text = formatMtaStsPolicy(policy);
    expect(text).toBe(
      'version: STSv1\r\nmode: testing\r\nmx: mx1.example.com\r\nmx: *.mx.example.com\r\nmax_age: 86400\r\n',
    );
    expect(parseMtaStsPolicy(text).value).toEqual(policy);
  });

  it('reports each bad field', () => {
    const r = parseMtaStsPolicy(
      'version: STSv2\nmode: strict\nmx: bad host\nmax_age: 31557601\nnonsense line\n',
    );
    expect(fields(r.errors).sort()).toEqual(['file', 'max_age', 'mode', 'mx', 'version']);
    expect(fields(parseMtaStsPolicy('mode: none\n').errors).sort()).toEqual(['max_age', 'version']);
    expect(fields(parseMtaStsPolicy('version: STSv1\nmode: enforce\nmax_age: 86400\n').errors)).toEqual([
      'mx',
    ]);
    expect(
      fields(parseMtaStsPolicy('version: STSv1\nmode: none\nmode: enforce\nmax_age: 1\n').errors),
    ).toEqual(['mode']);
    expect(parseMtaStsPolicy('version: STSv1\nmode: none\nmax_age: 0\n').ok).toBe(true);
  });

  it('warns about short max_age, duplicated mx and unknown fields', () => {
    const r = parseMtaStsPolicy(
      'version: STSv1\nmode: enforce\nmx: a.example.com\nmx: A.example.com\nmax_age: 3600\ncolour: blue\n',
    );
    expect(r.ok).toBe(true);
    expect(fields(r.warnings).sort()).toEqual(['colour', 'max_age', 'mx']);
  });

  it('refuses bodies over 64 KB', () => {
    const big = 'version: STSv1\nmode: none\nmax_age: 1\n' + 'x-pad: '.padEnd(70_000, 'x') + '\n';
    expect(fields(parseMtaStsPolicy(big).errors)).toEqual(['file']);
  });

  it('agrees with mailauth on what it accepts and the values it reads', () => {
    const files = [
      'version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmax_age: 604800\r\n',
      'version: STSv1\nmode: testing\nmx: *.example.net\nmx: mx.example.org\nmax_age: 0\n',
      'version: STSv1\nmode: none\nmax_age: 31557600\n',
      'version: STSv2\nmode: enforce\nmx: a.example.com\nmax_age: 1\n',
      'version: STSv1\nmode: sometimes\nmx: a.example.com\nmax_age: 1\n',
      'version: STSv1\nmode: enforce\nmx: a.example.com\nmax_age: 31557601\n',
      'version: STSv1\nmode: enforce\nmax_age: 100\n',
    ];
    for (const file of files) {
      let theirs: { mode: string; mx?: string[]; maxAge: number } | null;
      try {
        theirs = mailauthParsePolicy(file) as typeof theirs;
      } catch {
        theirs = null;
      }
      const ours = parseMtaStsPolicy(file);
      expect([file, ours.ok]).toEqual([file, theirs !== null]);
      if (theirs && ours.value) {
        expect(ours.value).toMatchObject({ mode: theirs.mode, mx: theirs.mx ?? [], max_age: theirs.maxAge });
      }
    }
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        parseMtaStsPolicy(s);
        parseMtaStsRecord(s);
      }),
    );
  });
});

describe('validateMtaStsPolicy', () => {
  it('validates form input with per-item mx errors', () => {
    expect(
      validateMtaStsPolicy({ mode: 'enforce', max_age: '604800', mx: ['mx.example.com'] }).value,
    ).toEqual({
      version: 'STSv1',
      mode: 'enforce',
      mx: ['mx.example.com'],
      max_age: 604800,
    });
    const r = validateMtaStsPolicy({ mode: 'on', max_age: -1, mx: ['ok.example.com', 'not_valid', 7] });
    expect(fields(r.errors).sort()).toEqual(['max_age', 'mode', 'mx[1]', 'mx[2]']);
    expect(fields(validateMtaStsPolicy({ mode: 'testing', max_age: 86400, mx: [] }).errors)).toEqual(['mx']);
    expect(fields(validateMtaStsPolicy({}).errors)).toEqual(['mode', 'max_age']);
  });
});

describe('MX matching', () => {
  it('matches a wildcard against exactly one leftmost label (RFC 8461 §4.1)', () => {
    expect(mxMatchesPattern('mail.example.com', 'mail.example.com')).toBe(true);
    expect(mxMatchesPattern('MX1.Example.NET.', '*.example.net')).toBe(true);
    expect(mxMatchesPattern('a.b.example.net', '*.example.net')).toBe(false);
    expect(mxMatchesPattern('example.net', '*.example.net')).toBe(false);
    expect(mxMatchesPattern('mail.example.org', 'mail.example.com')).toBe(false);
  });
});

describe('_mta-sts TXT record', () => {
  it('parses and builds v=STSv1; id=…', () => {
    expect(parseMtaStsRecord('v=STSv1; id=20160831085700Z;')).toMatchObject({
      ok: true,
      value: { v: 'STSv1', id: '20160831085700Z' },
    });
    expect(parseMtaStsRecord(buildMtaStsRecord('abc123')).value).toEqual({ v: 'STSv1', id: 'abc123' });
    expect(fields(parseMtaStsRecord('id=1; v=STSv1').errors)).toEqual(['v']);
    expect(fields(parseMtaStsRecord('v=STSv1').errors)).toEqual(['id']);
    expect(fields(parseMtaStsRecord('v=STSv1; id=has-dash').errors)).toEqual(['id']);
    expect(fields(parseMtaStsRecord('v=STSv1; id=' + 'a'.repeat(33)).errors)).toEqual(['id']);
  });

  it('builds ids that mailauth reads back from DNS', async () => {
    const id = mtaStsPolicyId(new Date('2024-03-05T06:07:08Z'));
    expect(id).toBe('20240305060708');
    const resolver = createStaticResolver({ '_mta-sts.example.com': { TXT: [buildMtaStsRecord(id)] } });
    expect(await mailauthResolvePolicy('example.com', { resolver: asLooseResolver(resolver) })).toBe(id);
  });
});
