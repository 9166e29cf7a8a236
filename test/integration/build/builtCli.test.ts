/**
 * `npm run build`'s main half produces a runnable out/: the bundles are built into a folder outside the
 * repository (with only node_modules reachable, for the native modules), and the built `authwatch` syncs
 * against the reference service from there. Nothing in the bundles points back at the source tree.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMain } from '../../../scripts/build-main.ts';
import { CORE_SIGNALS, HISTORY_SIGNALS } from '../../../main/core/sync/syncJobs.ts';
import { cliEnv, REPO_ROOT, runCliProcess } from '../../support/cliProcess.ts';
import { startWorld, type EngineWorld } from '../../support/engineWorld.ts';

describe('built main bundles, run outside the repository', () => {
  let dir: string;
  let outMain: string;
  let world: EngineWorld;
  let files: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-built-'));
    outMain = join(dir, 'out', 'main');
    files = await buildMain({ outDir: outMain });
    // Native modules (better-sqlite3, keytar) are not bundled: they come from node_modules, as in the package.
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    world = await startWorld(['built.example']);
  }, 120_000);
  afterAll(async () => {
    await world?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the Electron main, the CommonJS preload, the CLI and the host', () => {
    for (const f of ['main.js', 'preload.cjs', 'cli.js']) expect(files).toContain(f);
    // The window's icon beside main.js (main.ts passes it to BrowserWindow: Linux's title bar and switcher).
    expect(files).toContain('icon.png');
    for (const f of files.filter((f) => /\.c?js$/.test(f)))
      expect(readFileSync(join(outMain, f), 'utf8'), `${f} names the source tree`).not.toContain(REPO_ROOT);
  });

  it('leaves out of the host what its start does not run: zod’s other locales, nodemailer until a mail', () => {
    expect(files).toContain('host.js');
    const host = readFileSync(join(outMain, 'host.js'), 'utf8');
    // Node compiles the whole file before the host can listen for its window.
    expect(host).not.toContain('nodemailer/');
    expect(host).not.toMatch(/zod\/v4\/locales\/(?!en\.js|index\.js)/);
    const mailer = files.filter((f) => /^chunks\/host-nodemailer-[\w-]+\.js$/.test(f));
    expect(mailer).toHaveLength(1);
    expect(host).toContain(`import("./${mailer[0]}")`);
  });

  it('keeps the sandboxed preload tiny: the bridge client only, no zod, only electron required', () => {
    const preload = readFileSync(join(outMain, 'preload.cjs'), 'utf8');
    expect(statSync(join(outMain, 'preload.cjs')).size).toBeLessThan(20_000);
    expect(preload).not.toMatch(/zod/i);
    expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(['electron']);
    expect(preload).toMatch(/exposeInMainWorld\)?\(\s*"authwatch"/);
  });

  it('the built authwatch syncs against the reference service and reads the mirror back', async () => {
    const db = join(dir, 'data', 'mirror.db');
    const env = cliEnv({ AUTHWATCH_TOKEN: world.token, AUTHWATCH_DB: db, HOME: dir });
    const entry = join(outMain, 'cli.js');
    const sync = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], {
      env,
      entry,
      cwd: dir,
    });
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/Synced “default”: \d+ fetched, 0 failed/);
    const status = await runCliProcess(['status', '--json'], { env, entry, cwd: dir });
    expect(status.code, status.stderr).toBe(0);
    // The bundle has no folder to list: its signal registry is the static imports build-main made of
    // main/core/signals/defs, so it plans every signal the sources plan for a domain, with the same words.
    const [account] = JSON.parse(status.stdout) as { periods: object; words: Record<string, string> }[];
    const planned = ['domains', ...CORE_SIGNALS, ...HISTORY_SIGNALS];
    expect(Object.keys(account!.periods).sort()).toEqual([...planned].sort());
    expect(account!.words.bimi_readiness).toBe(
      'Whether mailbox providers can show the brand logo (BIMI readiness)',
    );
    const exported = await runCliProcess(['export', '--format', 'csv'], { env, entry, cwd: dir });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('built.example');
  }, 120_000);
});
