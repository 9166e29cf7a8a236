/**
 * Electronegativity (Doyensec's Electron security scanner) over the desktop shell finds nothing of high or
 * medium severity. Its only network use (release list, translations) fails offline and is not needed: the
 * Electron version is passed in.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(import.meta.url);

describe('Electronegativity', () => {
  it('finds no high or medium issue in main/', async () => {
    const pkg = require.resolve('@doyensec/electronegativity/package.json');
    const bin = join(dirname(pkg), (require(pkg) as { bin: Record<string, string> }).bin.electronegativity!);
    const electronVersion = (require('electron/package.json') as { version: string }).version;
    const dir = mkdtempSync(join(tmpdir(), 'authwatch-eneg-'));
    try {
      const out = join(dir, 'findings.csv');
      await promisify(execFile)(
        process.execPath,
        [bin, '-i', join(root, 'main'), '-e', electronVersion, '-o', out],
        {
          cwd: root,
          timeout: 100_000,
        },
      );
      const rows = readFileSync(out, 'utf8').trim().split('\n').slice(1);
      const serious = rows.filter((row) => /^[A-Z_]+,"(HIGH|MEDIUM)"/.test(row));
      expect(serious, serious.join('\n')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
