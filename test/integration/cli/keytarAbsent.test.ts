/**
 * Issue 11, end to end: the `authwatch` command on a machine where keytar is not installed (npm ci skipped
 * the optional dependency). A module-resolution hook makes `keytar` unresolvable in the real process.
 * Without AUTHWATCH_TOKEN it says in one line that the keychain cannot be used and what it does instead;
 * with it, sync works; no file it writes holds the token.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCliProcess } from '../../support/cliProcess.ts';
import { startWorld, type EngineWorld } from '../../support/engineWorld.ts';

const withoutKeytar = ['--import', fileURLToPath(new URL('./fixtures/keytarMissing.mjs', import.meta.url))];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('authwatch without keytar', () => {
  let world: EngineWorld;
  let db: string;
  beforeAll(async () => {
    world = await startWorld(['nokeychain.example']);
    db = join(world.dir, 'mirror.db');
  });
  afterAll(() => world.close());

  it('says once, in one line, that the keychain cannot be used and asks for AUTHWATCH_TOKEN', async () => {
    const run = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], {
      env: cliEnv({ AUTHWATCH_DB: db, HOME: world.dir }),
      nodeArgs: withoutKeytar,
    });
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    const notice = lines.filter((l) => /keychain cannot be used/.test(l));
    expect(notice).toHaveLength(1);
    expect(notice[0]).toMatch(
      /^Authwatch: the OS keychain cannot be used \(keytar failed to load: Cannot find package 'keytar'.*\); tokens are kept in memory for this session only/,
    );
    expect(run.stderr).toMatch(/No API token for “default”: set AUTHWATCH_TOKEN/);
    expect(run.stderr).not.toMatch(/gyp|at .*\(node:internal/);
  }, 60_000);

  it('syncs with AUTHWATCH_TOKEN, reads without a keychain, and writes the token nowhere', async () => {
    const env = cliEnv({ AUTHWATCH_TOKEN: world.token, AUTHWATCH_DB: db, HOME: world.dir });
    const sync = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], {
      env,
      nodeArgs: withoutKeytar,
    });
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/Synced “default”/);
    expect(sync.stderr).not.toMatch(/keychain/);

    const readerEnv = cliEnv({ AUTHWATCH_DB: db, HOME: world.dir });
    const status = await runCliProcess(['status'], { env: readerEnv, nodeArgs: withoutKeytar });
    expect(status.code, status.stderr).toBe(0);
    const exported = await runCliProcess(
      ['export', '--format', 'json', '--out', join(world.dir, 'out.json')],
      {
        env: readerEnv,
        nodeArgs: withoutKeytar,
      },
    );
    expect(exported.code, exported.stderr).toBe(0);

    for (const file of filesUnder(world.dir))
      expect(readFileSync(file).includes(world.token), `${file} holds the token`).toBe(false);
  }, 60_000);
});
