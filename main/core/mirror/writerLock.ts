import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname as osHostname } from 'node:os';
import Database from 'better-sqlite3';

/**
 * One writer per mirror. Every syncing process has its own rate budget and its own notification delivery,
 * so two of them on one mirror would spend a token's 60 requests a minute twice and notify twice.
 *
 * The lock itself is an SQLite write lock (BEGIN IMMEDIATE, never committed) held on `<mirror>.writer`, an
 * empty database kept beside the mirror: the operating system releases it the moment its holder's process
 * ends — exit, crash, kill -9 — so no pid is ever guessed at (containers reuse pids: the app is often pid 1
 * after a restart) and no file has to be deleted by hand. `<mirror>.lock` only says who holds it (pid, host,
 * start time, purpose), for the messages; it decides nothing. Readers (status, alerts, export, a window that
 * only shows) need no lock.
 */

/** Who holds a mirror's writer lock. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** ISO time the holder took the lock. */
  startedAt: string;
  /** What the holder is ("authwatch sync --watch", "Authwatch desktop app"). */
  purpose: string;
}

/** A held lock. */
export interface WriterLock {
  readonly path: string;
  readonly holder: LockHolder;
  /** Frees the lock; also done on process exit, and by the OS when the process dies. */
  release(): void;
}

export type LockAttempt =
  { ok: true; lock: WriterLock; tookOverFrom: LockHolder | null } | { ok: false; holder: LockHolder };

/** Where the note naming a mirror's writer lives (the lock itself is `<mirror>.writer`). */
export function writerLockPath(dbPath: string): string {
  return `${dbPath}.lock`;
}

/** The database whose write lock is the writer lock. Never deleted: a new file would be a second lock. */
function osLockPath(dbPath: string): string {
  return `${dbPath}.writer`;
}

/** "pid 4242 on mybox (authwatch sync --watch, since 2026-06-15T12:00:00.000Z)". */
export function describeHolder(holder: LockHolder): string {
  if (holder.pid === 0) return holder.purpose;
  return `pid ${holder.pid} on ${holder.hostname} (${holder.purpose}, since ${holder.startedAt})`;
}

/** Options, mostly for tests: who we are. */
export interface LockOptions {
  purpose: string;
  pid?: number;
  hostname?: string;
  now?: () => number;
  /** Free the lock on process exit (default true). */
  releaseOnExit?: boolean;
}

function readHolder(path: string): LockHolder | null {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    if (
      typeof h.pid === 'number' &&
      typeof h.hostname === 'string' &&
      typeof h.startedAt === 'string' &&
      typeof h.purpose === 'string'
    )
      return h as LockHolder;
  } catch {
    // missing, being replaced or damaged: it only names the holder
  }
  return null;
}

/** The note is replaced whole (rename), so a reader never sees half of it. */
function writeHolder(path: string, holder: LockHolder): void {
  const temp = `${path}.${holder.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temp, JSON.stringify(holder) + '\n', { mode: 0o644 });
  renameSync(temp, path);
}

const UNNAMED: LockHolder = { pid: 0, hostname: '', startedAt: '', purpose: 'another Authwatch process' };

/**
 * Takes the writer lock of `dbPath`, or says who holds it. The lock is free exactly when no live process
 * holds it; a note left by a holder that died is reported as taken over from.
 */
export function acquireWriterLock(dbPath: string, options: LockOptions): LockAttempt {
  const path = writerLockPath(dbPath);
  const now = options.now ?? Date.now;
  const me: LockHolder = {
    pid: options.pid ?? process.pid,
    hostname: options.hostname ?? osHostname(),
    startedAt: new Date(now()).toISOString(),
    purpose: options.purpose,
  };
  // timeout 0: a held lock answers SQLITE_BUSY at once instead of waiting for it.
  const lockDb = new Database(osLockPath(dbPath), { timeout: 0 });
  try {
    lockDb.exec('BEGIN IMMEDIATE');
  } catch (error) {
    lockDb.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    // The holder writes its note right after taking the lock: a missing note is one being written.
    return { ok: false, holder: readHolder(path) ?? UNNAMED };
  }
  // Ours now: a note still here was left by a holder that ended without releasing (a crash, kill -9).
  const left = readHolder(path);
  writeHolder(path, me);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    const current = readHolder(path);
    if (current && sameHolder(current, me)) unlinkQuietly(path);
    try {
      lockDb.exec('ROLLBACK');
    } finally {
      lockDb.close();
    }
  };
  if (options.releaseOnExit ?? true) process.on('exit', release);
  return { ok: true, lock: { path, holder: me, release }, tookOverFrom: left };
}

function sameHolder(a: LockHolder, b: LockHolder): boolean {
  return (
    a.pid === b.pid && a.hostname === b.hostname && a.startedAt === b.startedAt && a.purpose === b.purpose
  );
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
