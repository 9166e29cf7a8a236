import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../support/openMirror.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Permission bits of a path, as in `ls -l` (0o600, 0o700 …). */
const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Runs `node bin/authwatch.mjs …` as a user would; resolves to the exit status. */
function authwatch(args: string[], home: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/authwatch.mjs', ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: home, AUTHWATCH_TOKEN: 'not-used-by-status' },
      stdio: 'ignore',
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe('the mirror at a path given with --db is private to the user', () => {
  let dir: string;
  let umask: number;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-private-'));
    // The usual umask, which alone would leave new files readable by everyone (644).
    umask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });

  it('authwatch creates the folders 700 and the mirror 600', async () => {
    const db = join(dir, 'cli', 'nested', 'mirror.db');
    expect(await authwatch(['status', '--db', db], dir)).toBe(0);
    expect(modeOf(join(dir, 'cli'))).toBe(0o700);
    expect(modeOf(join(dir, 'cli', 'nested'))).toBe(0o700);
    expect(modeOf(db)).toBe(0o600);
  });

  it('the write-ahead log and shared memory of an open mirror are 600 too', () => {
    const db = join(dir, 'app', 'mirror.db');
    const mirror = openMirror(db);
    try {
      mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://authwatch.example/api/v1' });
      expect(modeOf(db)).toBe(0o600);
      for (const companion of [`${db}-wal`, `${db}-shm`]) {
        expect(existsSync(companion)).toBe(true);
        expect(modeOf(companion)).toBe(0o600);
      }
    } finally {
      mirror.close();
    }
  });

  it('an existing mirror readable by others is narrowed to 600 when opened', () => {
    const db = join(dir, 'old.db');
    writeFileSync(db, '', { mode: 0o644 });
    openMirror(db).close();
    expect(modeOf(db)).toBe(0o600);
  });
});
