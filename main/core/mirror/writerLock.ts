import { linkSync, mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname as osHostname, uptime } from 'node:os';

/**
 * One writer per mirror. Every syncing process has its own rate budget and its own notification delivery,
 * so two of them on one mirror would spend a token's 60 requests a minute twice and notify twice. The writer
 * holds `<mirror>.lock` (its pid, host, start time and what it is); readers (status, alerts, export, a
 * window that only shows) need no lock. The file is removed on exit and taken over when its holder died.
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
  /** Frees the lock (only if it is still ours); also done on process exit. */
  release(): void;
}

export type LockAttempt =
  { ok: true; lock: WriterLock; tookOverFrom: LockHolder | null } | { ok: false; holder: LockHolder };

/** Where the lock of a mirror file lives. */
export function writerLockPath(dbPath: string): string {
  return `${dbPath}.lock`;
}

/** "pid 4242 on mybox (authwatch sync --watch, since 2026-06-15T12:00:00.000Z)". */
export function describeHolder(holder: LockHolder): string {
  return `pid ${holder.pid} on ${holder.hostname} (${holder.purpose}, since ${holder.startedAt})`;
}

/** Options, mostly for tests: who we are and how to tell whether a pid runs. */
export interface LockOptions {
  purpose: string;
  pid?: number;
  hostname?: string;
  now?: () => number;
  isRunning?: (pid: number) => boolean;
  /** When the machine booted (ms): a lock taken before it cannot have a live holder (pids restart). */
  bootTime?: number;
  /** Free the lock on process exit (default true). */
  releaseOnExit?: boolean;
}

function pidRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): LockHolder | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (
      typeof h.pid === 'number' &&
      typeof h.hostname === 'string' &&
      typeof h.startedAt === 'string' &&
      typeof h.purpose === 'string'
    )
      return h as LockHolder;
  } catch {
    // fall through
  }
  return 'unreadable';
}

/** Creates the lock file with its full content in one step (hard link of a finished temp file). */
function createLockFile(path: string, holder: LockHolder): boolean {
  const temp = `${path}.${holder.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temp, JSON.stringify(holder) + '\n', { mode: 0o644 });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    // A file system without hard links: exclusive create, then write (readers may briefly see it empty).
    try {
      writeFileSync(path, JSON.stringify(holder) + '\n', { flag: 'wx', mode: 0o644 });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
  }
}

/**
 * Takes the writer lock of `dbPath`, or says who holds it. A lock whose holder is gone (its pid no longer
 * runs on this host, or it predates the last boot) is taken over; a holder on another host cannot be checked
 * and is respected. Takeovers are serialized by a short-lived `<lock>.takeover` directory, so two processes
 * finding the same dead holder cannot both win.
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
  const isRunning = options.isRunning ?? pidRunning;
  const bootTime = options.bootTime ?? Date.now() - uptime() * 1000;

  const dead = (h: LockHolder): boolean => {
    if (h.hostname !== me.hostname) return false;
    // A minute of slack: uptime and the clock are read at slightly different moments.
    if (Date.parse(h.startedAt) < bootTime - 60_000) return true;
    return h.pid !== me.pid && !isRunning(h.pid);
  };

  for (let round = 0; round < 5; round++) {
    if (createLockFile(path, me)) return { ok: true, lock: held(path, me, options), tookOverFrom: null };
    const found = readHolder(path);
    if (found === 'missing') continue;
    if (found === 'unreadable') {
      // Being written by a file system without links, or damaged: damaged only once it is not fresh.
      if (ageMs(path, now) < 5_000) continue;
    } else if (!dead(found)) {
      return { ok: false, holder: found };
    }
    const takeover = `${path}.takeover`;
    try {
      mkdirSync(takeover);
    } catch {
      // Another process is taking over; a takeover directory left by a crash expires.
      if (ageMs(takeover, now) > 10_000) rmQuietly(takeover);
      continue;
    }
    try {
      const again = readHolder(path);
      const same =
        again === found ||
        (typeof again === 'object' && typeof found === 'object' && sameHolder(again, found));
      if (!same) continue;
      unlinkQuietly(path);
      if (createLockFile(path, me))
        return {
          ok: true,
          lock: held(path, me, options),
          tookOverFrom: typeof found === 'object' ? found : null,
        };
    } finally {
      rmQuietly(takeover);
    }
  }
  const last = readHolder(path);
  if (typeof last === 'object') return { ok: false, holder: last };
  throw new Error(`Cannot take the writer lock ${path}: it keeps changing.`);
}

function held(path: string, me: LockHolder, options: LockOptions): WriterLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    const current = readHolder(path);
    if (typeof current === 'object' && sameHolder(current, me)) unlinkQuietly(path);
  };
  if (options.releaseOnExit ?? true) process.on('exit', release);
  return { path, holder: me, release };
}

function sameHolder(a: LockHolder, b: LockHolder): boolean {
  return (
    a.pid === b.pid && a.hostname === b.hostname && a.startedAt === b.startedAt && a.purpose === b.purpose
  );
}

function ageMs(path: string, now: () => number): number {
  try {
    return now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function rmQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // already gone
  }
}
