/**
 * The browser host as a user starts it (`main/host/index.ts`): stopped with SIGTERM or SIGINT it releases the
 * mirror's writer lock and closes the mirror cleanly; when it cannot start (port in use, a mirror it cannot
 * read, a mirror from a newer version, a bad --port, a mirror another process syncs) it says what is wrong
 * in one plain line — no stack trace — and exits non-zero.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writerLockPath } from '../../../main/core/mirror/writerLock.ts';
import { REPO_ROOT, cliEnv, runCliProcess, startCli, type CliRun } from '../../support/cliProcess.ts';

const HOST = join(REPO_ROOT, 'main/host/index.ts');
let dir: string;
let renderer: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'authwatch-hostproc-'));
  renderer = join(dir, 'renderer');
  mkdirSync(renderer);
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Authwatch</title>');
  env = cliEnv({ HOME: dir });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const host = (args: string[]) =>
  startCli(['--no-open', '--renderer', renderer, ...args], {
    env,
    nodeArgs: ['--import', 'tsx'],
    entry: HOST,
  });

/** The run failed with exactly `pattern` as its plain line, and nothing that looks like a stack trace. */
function expectPlainFailure(run: CliRun, pattern: RegExp): void {
  expect(run.code, run.stderr).not.toBe(0);
  expect(run.code).not.toBeNull();
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toMatch(/Error:|node:internal|triggerUncaughtException/);
  const lines = run.stderr.trim().split('\n');
  expect(lines.at(-1), run.stderr).toMatch(pattern);
}

describe('the browser host process', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} releases the writer lock and closes the mirror cleanly`, async () => {
      const db = join(dir, `${signal}.db`);
      const running = host(['--db', db]);
      await waitForStdout(running, /Authwatch is running at http:\/\/127\.0\.0\.1:\d+\/#k=/);
      expect(existsSync(writerLockPath(db))).toBe(true);
      running.child.kill(signal);
      const ended = await running.done;
      expect(ended, ended.stderr).toMatchObject({ code: 0 });
      expect(existsSync(writerLockPath(db))).toBe(false);
      expect(existsSync(`${db}-wal`)).toBe(false);
    }, 60_000);
  }

  it('says in one line that the port is in use', async () => {
    const taken: Server = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    try {
      const run = await host(['--db', join(dir, 'port.db'), '--port', String(port)]).done;
      expectPlainFailure(
        run,
        new RegExp(`^authwatch-host: Port ${port} on 127\\.0\\.0\\.1 is already in use`),
      );
    } finally {
      taken.close();
    }
    // What it opened is closed again: the lock is free for the next start.
    expect(existsSync(writerLockPath(join(dir, 'port.db')))).toBe(false);
  }, 60_000);

  it('says in one line that the mirror cannot be read, is a folder, or is from a newer version', async () => {
    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, 'not a database '.repeat(20));
    expectPlainFailure(
      await host(['--db', garbage]).done,
      /^authwatch-host: Cannot open the mirror .*garbage\.db: file is not a database\. .*another --db\.$/,
    );
    const folder = join(dir, 'folder.db');
    mkdirSync(folder);
    expectPlainFailure(
      await host(['--db', folder]).done,
      /^authwatch-host: Cannot open the mirror .*folder\.db/,
    );
    const newer = join(dir, 'newer.db');
    const d = new Database(newer);
    d.pragma('user_version = 9999');
    d.close();
    expectPlainFailure(
      await host(['--db', newer]).done,
      /^authwatch-host: The mirror .*newer\.db was written by a newer Authwatch .*update Authwatch, or use another --db\.$/,
    );
  }, 90_000);

  it('says in one line that --port is not a port, or an option is unknown', async () => {
    expectPlainFailure(
      await host(['--db', join(dir, 'p.db'), '--port', 'eighty']).done,
      /^authwatch-host: --port must be a number/,
    );
    expectPlainFailure(await host(['--bogus']).done, /^authwatch-host: Unknown option '--bogus'/);
  }, 60_000);

  it('says in one line that another process syncs the mirror', async () => {
    const db = join(dir, 'shared.db');
    const first = host(['--db', db]);
    await waitForStdout(first, /Authwatch is running/);
    try {
      expectPlainFailure(
        await host(['--db', db]).done,
        new RegExp(`^authwatch-host: Another Authwatch process is syncing .*pid ${first.child.pid}`),
      );
    } finally {
      first.child.kill('SIGTERM');
      await first.done;
    }
  }, 60_000);
});

describe('the authwatch command at start', () => {
  it('says in one line what is wrong with the mirror', async () => {
    const newer = join(dir, 'cli-newer.db');
    const d = new Database(newer);
    d.pragma('user_version = 9999');
    d.close();
    const run = await runCliProcess(['status', '--db', newer], { env });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(
      /^authwatch: The mirror .*cli-newer\.db was written by a newer Authwatch .*use another --db\.$/,
    );
    const folder = join(dir, 'cli-folder.db');
    mkdirSync(folder);
    const again = await runCliProcess(['status', '--db', folder], { env });
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/^authwatch: Cannot open the mirror .*cli-folder\.db/);
  }, 60_000);
});

function waitForStdout(run: ReturnType<typeof host>, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern}; stderr: ${run.stderr()}`)), 30_000);
    const check = () => {
      if (pattern.test(run.stdout())) {
        clearTimeout(timer);
        resolve();
      }
    };
    run.child.stdout!.on('data', check);
    run.child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`ended before ${pattern}; stderr: ${run.stderr()}`));
    });
    check();
  });
}
