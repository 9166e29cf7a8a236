import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireWriterLock, writerLockPath } from '../../../../main/core/mirror/writerLock.ts';

const LOCK_MODULE = fileURLToPath(new URL('../../../../main/core/mirror/writerLock.ts', import.meta.url));

describe('acquireWriterLock', () => {
  let dir: string;
  let db: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-lock-'));
    db = join(dir, 'mirror.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const base = { releaseOnExit: false, hostname: 'box' };

  it('gives the lock to one writer and names it to the next', () => {
    const first = acquireWriterLock(db, { ...base, purpose: 'desktop app', pid: 100 });
    expect(first.ok).toBe(true);
    const second = acquireWriterLock(db, { ...base, purpose: 'authwatch sync', pid: 200 });
    expect(second).toMatchObject({
      ok: false,
      holder: { pid: 100, hostname: 'box', purpose: 'desktop app' },
    });
    if (first.ok) first.lock.release();
    const third = acquireWriterLock(db, { ...base, purpose: 'authwatch sync', pid: 200 });
    expect(third).toMatchObject({ ok: true, tookOverFrom: null });
    if (third.ok) third.lock.release();
  });

  it('is free when only a note is left, whatever pid it names: pid 1, our own, a live one', () => {
    // Containers: after a restart the app is pid 1 again; the note of the previous run names pid 1 too.
    for (const pid of [1, process.pid, process.ppid]) {
      const note = { pid, hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z', purpose: 'old run' };
      writeFileSync(writerLockPath(db), JSON.stringify(note));
      const attempt = acquireWriterLock(db, { ...base, purpose: 'new run' });
      expect(attempt, `note naming pid ${pid}`).toMatchObject({ ok: true, tookOverFrom: { pid } });
      expect(JSON.parse(readFileSync(writerLockPath(db), 'utf8'))).toMatchObject({ purpose: 'new run' });
      if (attempt.ok) attempt.lock.release();
    }
  });

  it('is released by the OS when its holder is killed with SIGKILL (no pid is guessed)', async () => {
    // A real process takes the lock and is killed before it can release anything.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `const { acquireWriterLock } = await import(${JSON.stringify(LOCK_MODULE)});
         const a = acquireWriterLock(${JSON.stringify(db)}, { purpose: 'doomed' });
         console.log(a.ok ? 'held' : 'refused');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const whileAlive = acquireWriterLock(db, { ...base, purpose: 'second' });
    expect(whileAlive).toMatchObject({ ok: false, holder: { pid: child.pid, purpose: 'doomed' } });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const after = acquireWriterLock(db, { ...base, purpose: 'next' });
    expect(after).toMatchObject({ ok: true, tookOverFrom: { pid: child.pid, purpose: 'doomed' } });
    if (after.ok) after.lock.release();
  }, 30_000);

  it('release removes only its own note', () => {
    const first = acquireWriterLock(db, { ...base, purpose: 'a', pid: 100 });
    // A note that is not ours (written by hand, say): our release must leave it.
    const theirs = JSON.stringify({
      pid: 200,
      hostname: 'box',
      startedAt: new Date().toISOString(),
      purpose: 'b',
    });
    writeFileSync(writerLockPath(db), theirs);
    if (first.ok) first.lock.release();
    expect(readFileSync(writerLockPath(db), 'utf8')).toBe(theirs);
  });
});
