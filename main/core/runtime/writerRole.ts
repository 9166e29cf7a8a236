import { acquireWriterLock, describeHolder, type WriterLock } from '../mirror/writerLock.ts';

/**
 * How a process stands to the mirror's one writer (the process that syncs, spends the token's rate budget
 * and notifies). 'reader': never syncs (the CLI's status, alerts, export). 'writer': must be the writer,
 * or fails naming the one that is (the browser host, `authwatch sync`). 'standby': shows the data while
 * another process syncs and takes over when it stops (the desktop app).
 */
export type WriterRole = 'reader' | 'writer' | 'standby';

/** A writer found the lock held: two syncing processes would spend the rate limit and notify twice. */
export class MirrorBusyError extends Error {
  override readonly name = 'MirrorBusyError';
  /** The holder in words: "pid 4242 on host (authwatch sync --watch, since …)". */
  readonly holder: string;

  constructor(db: string, holder: string) {
    super(`Another Authwatch process is syncing ${db}: ${holder}.`);
    this.holder = holder;
  }
}

/** How often a standby tries to become the writer. */
const STANDBY_RETRY_MS = 30_000;

/** The writer lock as a runtime holds it. */
export interface WriterClaim {
  readonly writer: boolean;
  readonly syncedBy: string | null;
  /** Stops a standby's retries. */
  stopWaiting(): void;
  /** Frees the lock (and stops waiting). */
  close(): void;
}

/** Takes the writer lock as `role` asks; a standby calls `onTakeover` when it becomes the writer. */
export function claimWriterRole(
  db: string,
  role: WriterRole,
  purpose: string,
  say: (line: string) => void,
  onTakeover: () => void,
): WriterClaim {
  let lock: WriterLock | null = null;
  let syncedBy: string | null = null;
  let retry: ReturnType<typeof setInterval> | null = null;
  const stopWaiting = () => {
    if (retry) clearInterval(retry);
    retry = null;
  };

  if (role !== 'reader' && db !== ':memory:') {
    const attempt = acquireWriterLock(db, { purpose });
    if (attempt.ok) {
      lock = attempt.lock;
      if (attempt.tookOverFrom)
        say(
          `Authwatch: took over the mirror's writer lock from ${describeHolder(attempt.tookOverFrom)}, which is no longer running.`,
        );
    } else if (role === 'writer') {
      throw new MirrorBusyError(db, describeHolder(attempt.holder));
    } else {
      syncedBy = describeHolder(attempt.holder);
      say(`Authwatch: ${syncedBy} is syncing ${db}; this app shows its data and syncs once it stops.`);
      // When the other process stops (or dies), this one takes over.
      retry = setInterval(() => {
        const next = acquireWriterLock(db, { purpose });
        if (!next.ok) return;
        stopWaiting();
        lock = next.lock;
        syncedBy = null;
        say('Authwatch: the other process stopped; this app syncs the mirror now.');
        onTakeover();
      }, STANDBY_RETRY_MS);
      retry.unref?.();
    }
  }
  const memoryWriter = role !== 'reader' && db === ':memory:';

  return {
    get writer() {
      return lock !== null || memoryWriter;
    },
    get syncedBy() {
      return syncedBy;
    },
    stopWaiting,
    close() {
      stopWaiting();
      lock?.release();
      lock = null;
    },
  };
}
