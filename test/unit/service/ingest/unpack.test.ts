import { gunzipSync, gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseDmarcAggregate, unpackReport } from '../../../../service/ingest/index.ts';
import { catchReportParseError } from './catchReportParseError.ts';
import { listFixtures, readFixture } from './fixtureFiles.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

/** The plain XML of a fixture, taken out of its archive the way `zcat` / `unzip -p` would. */
function plainXml(name: string): Uint8Array {
  const raw = readFixture('dmarc-aggregate', name);
  if (name.endsWith('.gz')) return new Uint8Array(gunzipSync(raw));
  if (name.endsWith('.zip')) return unpackReport(raw).bytes;
  return raw;
}

const parseableFixtures = listFixtures('dmarc-aggregate').filter((name) => name !== 'invalid_xml.xml');

describe('unpackReport', () => {
  it('detects the container from the bytes, not the name', () => {
    const xml = bytes('<feedback/>');
    expect(unpackReport(xml)).toEqual({ container: 'plain', bytes: xml });
    expect(text(unpackReport(gzipSync(xml)).bytes)).toBe('<feedback/>');
    expect(unpackReport(gzipSync(xml)).container).toBe('gzip');
    const zipped = unpackReport(zipSync({ 'report.xml': xml }));
    expect(zipped).toMatchObject({ container: 'zip', entry_name: 'report.xml' });
    expect(text(zipped.bytes)).toBe('<feedback/>');
  });

  it('takes the first .xml entry of a zip, skipping other files and macOS shadow copies', () => {
    const archive = zipSync({
      'readme.txt': bytes('not this'),
      '__MACOSX/._a.xml': bytes('resource fork'),
      'A.XML': bytes('<first/>'),
      'b.xml': bytes('<second/>'),
    });
    const unpacked = unpackReport(archive);
    expect(unpacked.entry_name).toBe('A.XML');
    expect(text(unpacked.bytes)).toBe('<first/>');
  });

  it('finds a .json entry when asked for TLS reports', () => {
    const archive = zipSync({ 'a.xml': bytes('<x/>'), 'report.json': bytes('{}') });
    expect(unpackReport(archive, { entryExtension: '.json' }).entry_name).toBe('report.json');
  });

  it('refuses a zip with no report inside and lists what it holds', () => {
    const error = catchReportParseError(() =>
      unpackReport(zipSync({ 'notes.txt': bytes('hi'), 'x.csv': bytes('1') })),
    );
    expect(error.kind).toBe('empty_container');
    expect(error.message).toBe('zip archive holds no .xml file (entries: notes.txt, x.csv)');
    const empty = catchReportParseError(() => unpackReport(zipSync({})));
    expect(empty.message).toContain('the archive is empty');
  });

  it('refuses a truncated gzip with a clear message', () => {
    const gz = gzipSync(plainXml('usssa.com!example.com!1538784000!1538870399.xml'));
    const error = catchReportParseError(() => unpackReport(gz.subarray(0, gz.length - 20)));
    expect(error.kind).toBe('corrupt_container');
    expect(error.message).toMatch(/^gzip data is corrupt or truncated: unexpected end of file/);
  });

  it('refuses a gzip whose checksum does not match', () => {
    const gz = new Uint8Array(gzipSync(bytes('<feedback/>')));
    gz[gz.length - 6] = (gz[gz.length - 6] ?? 0) ^ 0xff;
    expect(catchReportParseError(() => unpackReport(gz)).kind).toBe('corrupt_container');
  });

  it('refuses a truncated zip', () => {
    const archive = zipSync({ 'report.xml': bytes('<feedback>'.repeat(50)) });
    const error = catchReportParseError(() => unpackReport(archive.subarray(0, 40)));
    expect(error.kind).toBe('corrupt_container');
    expect(error.message).toMatch(/^zip archive is corrupt or truncated/);
  });

  it('stops a decompression bomb at the size limit', () => {
    const bomb = gzipSync(new Uint8Array(2_000_000));
    expect(bomb.length).toBeLessThan(10_000);
    const error = catchReportParseError(() => unpackReport(bomb, { maxUnpackedBytes: 1_000_000 }));
    expect(error.kind).toBe('too_large');
    const zipBomb = zipSync({ 'r.xml': new Uint8Array(2_000_000) });
    expect(catchReportParseError(() => unpackReport(zipBomb, { maxUnpackedBytes: 1_000_000 })).kind).toBe(
      'too_large',
    );
  });
});

describe('the same report as plain XML, gzip and zip', () => {
  it.each(parseableFixtures)('%s parses identically in every container', (name) => {
    const xml = plainXml(name);
    const plain = parseDmarcAggregate(xml);
    expect(parseDmarcAggregate(gzipSync(xml))).toStrictEqual(plain);
    expect(parseDmarcAggregate(zipSync({ 'report.xml': xml }))).toStrictEqual(plain);
    // And the archive as the receiver sent it gives the same report as its contents.
    expect(parseDmarcAggregate(readFixture('dmarc-aggregate', name))).toStrictEqual(plain);
  });

  it('covers the fixtures that arrived compressed', () => {
    expect(parseableFixtures.filter((name) => /\.(gz|zip)$/.test(name))).toHaveLength(2);
  });
});
