import fc from 'fast-check';
import { bimi as mailauthBimi } from 'mailauth/lib/bimi';
import { describe, expect, it } from 'vitest';
import { asLooseResolver, createStaticResolver } from '../../../shared/email-auth/dns.ts';
import {
  buildBimiRecord,
  parseBimiRecord,
  validateBimiInput,
} from '../../../shared/email-auth/bimiRecord.ts';

const fields = (issues: { field: string }[]) => issues.map((i) => i.field);

describe('BIMI record', () => {
  it('parses logo and certificate locations', () => {
    const r = parseBimiRecord(
      'v=BIMI1; l=https://example.com/bimi/logo.svg; a=https://example.com/bimi/vmc.pem',
    );
    expect(r).toMatchObject({ ok: true, warnings: [] });
    expect(r.value).toEqual({
      v: 'BIMI1',
      l: 'https://example.com/bimi/logo.svg',
      a: 'https://example.com/bimi/vmc.pem',
      declined: false,
    });
  });

  it('recognises the declination record', () => {
    expect(parseBimiRecord('v=BIMI1; l=; a=;').value).toMatchObject({ declined: true, l: '', a: '' });
    expect(buildBimiRecord({ l: '', a: '' })).toBe('v=BIMI1; l=; a=;');
  });

  it('rejects a wrong version, plain http and malformed URLs', () => {
    expect(fields(parseBimiRecord('v=BIMI2; l=https://example.com/l.svg').errors)).toEqual(['v']);
    expect(fields(parseBimiRecord('l=https://example.com/l.svg; v=BIMI1').errors)).toEqual(['v']);
    expect(fields(parseBimiRecord('v=BIMI1; l=http://example.com/l.svg').errors)).toEqual(['l']);
    expect(fields(parseBimiRecord('v=BIMI1; l=https://example.com/l.svg; a=not a url').errors)).toEqual([
      'a',
    ]);
    expect(fields(parseBimiRecord('v=BIMI1').errors)).toEqual(['l']);
    expect(fields(parseBimiRecord('v=BIMI1; l=https://example.com/l.svg; avp=maybe').errors)).toEqual([
      'avp',
    ]);
  });

  it('warns when the certificate is missing or files have unusual extensions', () => {
    expect(fields(parseBimiRecord('v=BIMI1; l=https://example.com/logo.svg').warnings)).toEqual(['a']);
    expect(
      fields(
        parseBimiRecord('v=BIMI1; l=https://example.com/logo.png; a=https://example.com/vmc.pem').warnings,
      ),
    ).toEqual(['l']);
    expect(
      fields(
        parseBimiRecord('v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem; s=x')
          .warnings,
      ),
    ).toEqual(['s']);
  });

  it('validates form input and builds a record that parses back', () => {
    const input = {
      l: ' https://cdn.example.com/logo.svg ',
      a: 'https://cdn.example.com/vmc.pem',
      avp: 'brand',
    };
    const v = validateBimiInput(input);
    expect(v.ok).toBe(true);
    const built = buildBimiRecord(v.value!);
    expect(built).toBe(
      'v=BIMI1; l=https://cdn.example.com/logo.svg; a=https://cdn.example.com/vmc.pem; avp=brand',
    );
    expect(parseBimiRecord(built).value).toEqual(v.value);
    expect(fields(validateBimiInput({ l: 'ftp://x.example/logo.svg', a: 12 }).errors)).toEqual(['a', 'l']);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => void parseBimiRecord(s)));
  });

  it('agrees with mailauth on which published records pass and what they point to', async () => {
    const records = [
      'v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem',
      'v=BIMI1; l=https://example.com/logo.svg',
      'v=BIMI1; l=http://example.com/logo.svg',
      'v=BIMI2; l=https://example.com/logo.svg',
      'v=BIMI1; a=https://example.com/vmc.pem; l=https://example.com/l.svg',
    ];
    for (const record of records) {
      const resolver = createStaticResolver({ 'default._bimi.example.com': { TXT: [record] } });
      const theirs = await mailauthBimi({
        dmarc: {
          status: { result: 'pass', header: { from: 'example.com' } },
          domain: 'example.com',
          policy: 'reject',
          alignment: { dkim: { result: 'example.com' } },
        },
        headers: { parsed: [] },
        resolver: asLooseResolver(resolver),
      } as never);
      const ours = parseBimiRecord(record);
      const t = theirs as { status: { result: string }; location?: string; authority?: string };
      expect([record, ours.ok]).toEqual([record, t.status.result === 'pass']);
      if (ours.ok) expect([ours.value?.l, ours.value?.a || undefined]).toEqual([t.location, t.authority]);
    }
  });
});
