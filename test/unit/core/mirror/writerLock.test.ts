import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireWriterLock, writerLockPath } from '../../../../main/core/mirror/writerLock.ts';

describe('acquireWriterLock', () => {
  let dir: string;
  let db: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-lock-'));
    db = join(dir, 'mirror.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const base = { releaseOnExit: false, hostname: 'box', bootTime: 0 };

  it('gives the lock to one writer and names it to the next', () => {
    const first = acquireWriterLock(db, { ...base, purpose: 'desktop app', pid: 100, isRunning: () => true });
    expect(first.ok).toBe(true);
    const second = acquireWriterLock(db, {
      ...base,
      purpose: 'authwatch sync',
      pid: 200,
      isRunning: () => true,
    });
    expect(second).toMatchObject({
      ok: false,
      holder: { pid: 100, hostname: 'box', purpose: 'desktop app' },
    });
    if (first.ok) first.lock.release();
    expect(acquireWriterLock(db, { ...base, purpose: 'authwatch sync', pid: 200 }).ok).toBe(true);
  });

  it('takes over from a holder whose pid no longer runs, or that predates the last boot', () => {
    acquireWriterLock(db, { ...base, purpose: 'a', pid: 100 });
    const next = acquireWriterLock(db, { ...base, purpose: 'b', pid: 200, isRunning: (pid) => pid !== 100 });
    expect(next).toMatchObject({ ok: true, tookOverFrom: { pid: 100 } });

    const afterReboot = acquireWriterLock(db, {
      ...base,
      purpose: 'c',
      pid: 300,
      isRunning: () => true, // pid 200 was reused by something else after the reboot
      bootTime: Date.now() + 120_000,
    });
    expect(afterReboot).toMatchObject({ ok: true, tookOverFrom: { pid: 200 } });
  });

  it('respects a holder on another host (its pid cannot be checked from here)', () => {
    acquireWriterLock(db, { ...base, hostname: 'other', purpose: 'a', pid: 100 });
    const here = acquireWriterLock(db, { ...base, purpose: 'b', pid: 200, isRunning: () => false });
    expect(here).toMatchObject({ ok: false, holder: { hostname: 'other' } });
  });

  it('release removes only its own lock', () => {
    const first = acquireWriterLock(db, { ...base, purpose: 'a', pid: 100 });
    // Someone took over meanwhile (we were thought dead): our release must not free their lock.
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
