import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as emailAuth from '../../../shared/email-auth/index.ts';

const dir = new URL('../../../shared/email-auth/', import.meta.url);
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts'));

describe('shared/email-auth stays browser-safe', () => {
  it.each(sources)('%s imports only sibling files and fast-xml-parser, and uses no Node globals', (file) => {
    const text = readFileSync(new URL(file, dir), 'utf8');
    const imports = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    for (const spec of imports)
      expect([file, spec]).toEqual([file, expect.stringMatching(/^(\.\/[\w]+\.ts|fast-xml-parser)$/)]);
    expect(text).not.toMatch(/\bBuffer\b|\bprocess\.|\brequire\(|\b__dirname\b/);
  });

  it('exports every module through the index without name clashes', () => {
    expect(Object.keys(emailAuth)).toEqual(
      expect.arrayContaining([
        'parseDmarcRecord',
        'flattenSpf',
        'checkBimiSvg',
        'parseMtaStsPolicy',
        'parseTlsRptRecord',
        'parseBimiRecord',
        'createStaticResolver',
      ]),
    );
  });
});
