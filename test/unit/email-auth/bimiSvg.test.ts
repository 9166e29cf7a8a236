import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BIMI_SVG_MAX_BYTES, checkBimiSvg, convertToTinyPs } from '../../../shared/email-auth/bimiSvg.ts';

const require = createRequire(import.meta.url);
const { validateSvg } = require('mailauth/lib/bimi/validate-svg.js') as {
  validateSvg: (svg: string) => true;
};

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/email-auth/${name}`, import.meta.url), 'utf8');
const codes = (r: { issues: { code: string }[] }) => [...new Set(r.issues.map((i) => i.code))].sort();

const tiny = fixture('logo-tiny-ps.svg');
const plain = fixture('logo-plain.svg');
const wrap = (inner: string, rootAttrs = 'viewBox="0 0 10 10"') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.2" baseProfile="tiny-ps" ${rootAttrs}><title>T</title>${inner}</svg>`;

describe('checkBimiSvg', () => {
  it('accepts a Tiny PS logo and reports its title and size', () => {
    const r = checkBimiSvg(tiny);
    expect(r).toMatchObject({ valid: true, issues: [], title: 'Example & Sons' });
    expect(r.size_bytes).toBe(Buffer.byteLength(tiny));
  });

  it('finds every forbidden construct in an ordinary SVG', () => {
    expect(codes(checkBimiSvg(plain))).toEqual(
      [
        'animation',
        'base_profile',
        'external_reference',
        'raster_image',
        'root_xy',
        'script',
        'title_missing',
        'version',
        'viewbox_missing',
      ].sort(),
    );
  });

  it('checks each rule on its own', () => {
    expect(codes(checkBimiSvg(wrap('<script>x</script>')))).toEqual(['script']);
    expect(codes(checkBimiSvg(wrap('<rect onclick="x()"/>')))).toEqual(['script']);
    expect(codes(checkBimiSvg(wrap('<use xlink:href="https://e.example/a.svg#x"/>')))).toEqual([
      'external_reference',
    ]);
    expect(codes(checkBimiSvg(wrap('<use href="other.svg#x"/>')))).toEqual(['external_reference']);
    expect(codes(checkBimiSvg(wrap('<use href="#x"/><rect fill="url(#g)"/>')))).toEqual([]);
    expect(codes(checkBimiSvg(wrap('<rect fill="url(https://e.example/p.svg#g)"/>')))).toEqual([
      'external_reference',
    ]);
    for (const el of ['animate', 'animateMotion', 'animateTransform', 'set', 'discard']) {
      expect(codes(checkBimiSvg(wrap(`<rect><${el}/></rect>`)))).toEqual(['animation']);
    }
    expect(codes(checkBimiSvg(wrap('<image href="data:image/png;base64,AAAA"/>')))).toEqual(['raster_image']);
    expect(codes(checkBimiSvg(wrap('<foreignObject/>')))).toEqual(['disallowed_element']);
    expect(codes(checkBimiSvg(wrap('', 'viewBox="0 0 10 10" x="0"')))).toEqual(['root_xy']);
    expect(codes(checkBimiSvg(wrap('', 'viewBox="0 0 20 10"')))).toEqual(['viewbox_not_square']);
    expect(codes(checkBimiSvg(wrap('', 'width="10" height="10"')))).toEqual(['viewbox_missing']);
    expect(codes(checkBimiSvg(wrap('').replace('<title>T</title>', '<title> </title>')))).toEqual([
      'title_missing',
    ]);
    expect(codes(checkBimiSvg(wrap('').replace('xmlns="http://www.w3.org/2000/svg" ', '')))).toEqual([
      'svg_namespace',
    ]);
  });

  it('measures size in UTF-8 bytes and enforces 32 KB', () => {
    const padded = wrap(`<desc>${'é'.repeat(BIMI_SVG_MAX_BYTES / 2)}</desc>`);
    const r = checkBimiSvg(padded);
    expect(r.size_bytes).toBe(Buffer.byteLength(padded));
    expect(padded.length).toBeLessThan(BIMI_SVG_MAX_BYTES);
    expect(codes(r)).toEqual(['too_large']);
  });

  it('rejects malformed XML, other roots and entity declarations', () => {
    expect(codes(checkBimiSvg('<svg><g></svg>'))).toEqual(['xml_malformed']);
    expect(codes(checkBimiSvg(''))).toEqual(['xml_malformed']);
    expect(codes(checkBimiSvg('<html><body/></html>'))).toEqual(['not_svg']);
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>' +
      wrap('<desc>&b;</desc>');
    expect(codes(checkBimiSvg(bomb))).toContain('entity_declaration');
  });

  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (s) => void checkBimiSvg(s)));
    fc.assert(fc.property(fc.string({ maxLength: 100 }), (s) => void convertToTinyPs(wrap(s))));
    // Passes fast-xml-parser's validator, then makes its parser throw (a counterexample fuzzing found).
    expect(convertToTinyPs(wrap("<!'")).svg).toBeNull();
    expect(checkBimiSvg(wrap("<!'")).valid).toBe(false);
  });

  it('agrees with mailauth on the rules both check', () => {
    const cases = [
      tiny,
      plain,
      wrap('<script>x</script>'),
      wrap('<use xlink:href="https://e.example/a.svg#x"/>'),
      wrap('<rect><animate/></rect>'),
      wrap('', 'viewBox="0 0 10 10" y="1"'),
      wrap('').replace('<title>T</title>', ''),
      wrap('').replace('tiny-ps', 'tiny'),
      '<svg><g></svg>',
    ];
    for (const svg of cases) {
      let theirs: boolean;
      try {
        theirs = validateSvg(svg);
      } catch {
        theirs = false;
      }
      expect([svg.slice(0, 60), checkBimiSvg(svg).valid]).toEqual([svg.slice(0, 60), theirs]);
    }
  });
});

describe('convertToTinyPs', () => {
  it('turns an ordinary SVG into a valid Tiny PS logo and says what it changed', () => {
    const r = convertToTinyPs(plain, { fileName: 'uploads/acme-brand_logo.svg' });
    expect(r.check.issues).toEqual([]);
    expect(r.check.valid).toBe(true);
    expect(r.check.title).toBe('acme brand logo');
    expect(r.svg).toMatch(/^<\?xml version="1.0" encoding="UTF-8" standalone="no"\?>/);
    expect(r.svg).toContain('viewBox="0 -50 200 200"');
    expect(r.svg).toContain('Brand &lt;3');
    expect(r.svg).not.toMatch(/script|animate|<set|<image|onload|https:\/\/example\.com/);
    expect(r.changes.join('\n')).toMatch(/baseProfile/);
    expect(r.changes.join('\n')).toMatch(/removed 1 <script> element/);
    expect(r.changes.join('\n')).toMatch(/added the title "acme brand logo"/);
  });

  it('prefers a given title, keeps an existing one, and leaves a valid logo unchanged in substance', () => {
    expect(convertToTinyPs(plain, { title: 'Acme Inc.' }).check.title).toBe('Acme Inc.');
    expect(convertToTinyPs(wrap('').replace('<title>T</title>', '')).check.title).toBe('Logo');
    const same = convertToTinyPs(tiny);
    expect(same.changes).toEqual([]);
    expect(same.check).toMatchObject({ valid: true, title: 'Example & Sons' });
  });

  it('returns no SVG for input it cannot parse, with the reason', () => {
    const r = convertToTinyPs('<svg><rect></svg>');
    expect(r.svg).toBeNull();
    expect(codes(r.check)).toEqual(['xml_malformed']);
    expect(convertToTinyPs('<png/>').svg).toBeNull();
  });

  it('cannot fix external CSS references and says so through the check', () => {
    const r = convertToTinyPs(wrap('<rect fill="url(https://e.example/p.svg#g)"/>'));
    expect(codes(r.check)).toEqual(['external_reference']);
  });
});
