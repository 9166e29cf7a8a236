import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from '../../../../main/core/export/csv.ts';

describe('CSV export encoding', () => {
  it('quotes commas, quotes and line breaks per RFC 4180', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(7.5)).toBe('7.5');
    expect(csvField(false)).toBe('false');
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField(-3)).toBe('-3');
  });

  it('writes a header and CRLF-terminated rows', () => {
    expect(toCsv(['a', 'b'], [{ a: 1, b: 'x,y' }, { a: 2 }])).toBe('a,b\r\n1,"x,y"\r\n2,\r\n');
  });
});
