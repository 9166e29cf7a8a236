/**
 * The `authwatch` command runs the bundle `npm run build:main` wrote when it is up to date (no tsx loader in
 * a `sync --watch` that runs for months: 25–45 MiB of RSS less), and the TypeScript sources otherwise — never
 * a bundle older than what it was built from.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
type Entry = { kind: 'bundle'; path: string } | { kind: 'sources'; path: string; why: string };
const { cliEntry } = (await import(`${repoRoot}bin/cliEntry.mjs`)) as { cliEntry: (root: string) => Entry };

let root: string;
/** Writes `path` under the fake installation, modified `secondsAgo` seconds ago. */
const write = (path: string, text: string, secondsAgo: number) => {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  age(path, secondsAgo);
};
const age = (path: string, secondsAgo: number) => {
  const at = Date.now() / 1000 - secondsAgo;
  utimesSync(join(root, path), at, at);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'authwatch-entry-'));
  // Sources an hour old, in folders as old; the manifests too.
  write('main/cli/index.ts', "process.stdout.write('sources\\n');\n", 3600);
  write('main/core/alerts/rules/a.ts', 'export {};\n', 3600);
  write('shared/api/client.ts', 'export {};\n', 3600);
  for (const dir of [
    'main',
    'main/cli',
    'main/core',
    'main/core/alerts',
    'main/core/alerts/rules',
    'shared',
    'shared/api',
  ])
    age(dir, 3600);
  write('package.json', '{"type":"module"}\n', 3600);
  write('package-lock.json', '{}\n', 3600);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('cliEntry', () => {
  it('runs the sources when there is no bundle, and says how to make one', () => {
    const entry = cliEntry(root);
    expect(entry).toMatchObject({ kind: 'sources', path: join(root, 'main/cli/index.ts') });
    expect(entry.kind === 'sources' && entry.why).toMatch(/npm run build:main/);
  });

  it('runs the bundle when it is newer than every source and manifest', () => {
    write('out/main/cli.js', "process.stdout.write('bundle\\n');\n", 60);
    expect(cliEntry(root)).toEqual({ kind: 'bundle', path: join(root, 'out/main/cli.js') });
  });

  it('runs the sources once a source is edited after the build', () => {
    write('out/main/cli.js', '', 60);
    age('main/core/alerts/rules/a.ts', 10);
    expect(cliEntry(root)).toMatchObject({ kind: 'sources', why: expect.stringMatching(/older/) });
  });

  it('runs the sources once a file is removed from a folder after the build (a rule the bundle still holds)', () => {
    write('out/main/cli.js', '', 60);
    rmSync(join(root, 'main/core/alerts/rules/a.ts'));
    expect(cliEntry(root).kind).toBe('sources');
  });

  it('runs the sources once the dependencies changed after the build (npm ci)', () => {
    write('out/main/cli.js', '', 60);
    age('package-lock.json', 10);
    expect(cliEntry(root).kind).toBe('sources');
  });
});

describe('bin/authwatch.mjs', () => {
  /** Runs the launcher of the fake installation; resolves to what the code it chose printed. */
  const run = () => {
    const result = spawnSync(process.execPath, [join(root, 'bin/authwatch.mjs')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr).toBe('');
    return result.stdout.trim();
  };

  it('runs the up-to-date bundle without tsx, and the sources through tsx when the bundle is stale', () => {
    mkdirSync(join(root, 'bin'));
    for (const file of ['authwatch.mjs', 'cliEntry.mjs'])
      copyFileSync(join(repoRoot, 'bin', file), join(root, 'bin', file));
    symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
    write('out/main/cli.js', "process.stdout.write('bundle\\n');\n", 60);
    // TypeScript only tsx's loader runs: the sources' path printing proves the loader was registered.
    write(
      'main/cli/index.ts',
      "const said: string = 'sources';\nprocess.stdout.write(`${said}\\n`);\n",
      3600,
    );
    expect(run()).toBe('bundle');
    age('main/cli/index.ts', 10);
    expect(run()).toBe('sources');
  });
});
