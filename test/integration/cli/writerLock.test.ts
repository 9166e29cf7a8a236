/**
 * One writer per mirror, with real processes: while `authwatch sync --watch` holds the mirror, a second
 * `sync` names the holder and exits 1, and the readers (status, alerts, export) still work. A holder killed
 * with SIGKILL cannot clean up, yet the OS frees its lock: the next sync takes over at once. A holder stopped
 * with SIGTERM or SIGINT frees it and closes the mirror cleanly. A note naming pid 1 locks nothing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writerLockPath } from '../../../main/core/mirror/writerLock.ts';
import { cliEnv, runCliProcess, startCli, type RunningCli } from '../../support/cliProcess.ts';
import { startWorld, type EngineWorld } from '../../support/engineWorld.ts';
import { startZoneDnsServer, type ZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';

describe('writer lock between two authwatch processes', () => {
  let world: EngineWorld;
  let db: string;
  let env: NodeJS.ProcessEnv;
  let dns: ZoneDnsServer;
  const running: RunningCli[] = [];

  beforeAll(async () => {
    world = await startWorld(['lock.example']);
    // `sync --watch` runs the DNS watch: it asks the service's zone, never the machine's resolvers.
    dns = await startZoneDnsServer({ db: world.svc.db, port: 0 });
    db = join(world.dir, 'mirror.db');
    env = cliEnv({ AUTHWATCH_TOKEN: world.token, AUTHWATCH_DB: db, HOME: world.dir });
  });
  afterAll(async () => {
    for (const r of running) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    await dns.close();
    await world.close();
  });

  const watch = async () => {
    const holder = startCli(
      ['sync', '--watch', '--base-url', world.svc.baseUrl, '--dns-server', `127.0.0.1:${dns.port}`],
      { env },
    );
    running.push(holder);
    await holder.waitForStderr(/watching/);
    return holder;
  };

  it('refuses a second sync naming the holder, while status, alerts and export read', async () => {
    const holder = await watch();
    const lock = JSON.parse(readFileSync(writerLockPath(db), 'utf8')) as Record<string, unknown>;
    expect(lock).toMatchObject({ pid: holder.child.pid, purpose: 'authwatch sync --watch' });
    expect(typeof lock.hostname).toBe('string');
    expect(Date.parse(String(lock.startedAt))).not.toBeNaN();

    const second = await runCliProcess(['sync', '--once'], { env });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`pid ${holder.child.pid}`);
    expect(second.stderr).toMatch(/Another Authwatch process is syncing/);

    const status = await runCliProcess(['status'], { env });
    expect(status.code, status.stderr).toBe(0);
    const alerts = await runCliProcess(['alerts', '--json'], { env });
    expect(alerts.code, alerts.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(alerts.stdout))).toBe(true);
    const exported = await runCliProcess(['export', '--format', 'csv', '--out', join(world.dir, 'x.csv')], {
      env,
    });
    expect(exported.code, exported.stderr).toBe(0);

    // Stopped normally (Ctrl-C / SIGTERM), the holder frees the lock.
    holder.child.kill('SIGTERM');
    const ended = await holder.done;
    expect(ended.code).toBe(0);
    expect(existsSync(writerLockPath(db))).toBe(false);
  }, 120_000);

  it('takes over the lock of a holder killed with SIGKILL', async () => {
    const holder = await watch();
    const deadPid = holder.child.pid;
    holder.child.kill('SIGKILL');
    await holder.done;
    // SIGKILL leaves the file behind: nothing ran to remove it.
    expect(JSON.parse(readFileSync(writerLockPath(db), 'utf8'))).toMatchObject({ pid: deadPid });

    const next = await runCliProcess(['sync', '--once'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(`took over the mirror's writer lock from pid ${deadPid}`);
    expect(existsSync(writerLockPath(db))).toBe(false);
  }, 120_000);

  it('SIGINT (Ctrl-C) frees the lock and closes the mirror cleanly', async () => {
    const holder = await watch();
    holder.child.kill('SIGINT');
    const ended = await holder.done;
    expect(ended, ended.stderr).toMatchObject({ code: 0 });
    expect(existsSync(writerLockPath(db))).toBe(false);
    // A cleanly closed WAL database leaves no -wal file behind.
    expect(existsSync(`${db}-wal`)).toBe(false);
    const next = await runCliProcess(['sync', '--once'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).not.toMatch(/took over/);
  }, 120_000);

  it('a note naming pid 1 (the app after a container restart) locks nothing', async () => {
    const note = { pid: 1, hostname: hostname(), startedAt: new Date().toISOString(), purpose: 'Authwatch' };
    writeFileSync(writerLockPath(db), JSON.stringify(note));
    const next = await runCliProcess(['sync', '--once'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain("took over the mirror's writer lock from pid 1");
    expect(existsSync(writerLockPath(db))).toBe(false);
  }, 120_000);
});
