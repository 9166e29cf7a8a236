import type { Mirror, WriteResult, WriteSignalInput } from '../mirror/types.ts';
import type { SyncJob } from './syncJobs.ts';

/** One fetched signal waiting for its run's commit. */
export interface PendingWrite {
  job: SyncJob;
  input: WriteSignalInput;
  /** When the job's fetch started (a write that fails is recorded as of then, like a failed fetch). */
  startedAt: number;
  /** When the fetch completed (the sync's clock). */
  fetchedAt: number;
}

/** What became of one pending write at the commit. */
export type StoredWrite =
  { pending: PendingWrite; result: WriteResult } | { pending: PendingWrite; error: unknown };

/** Starts a wall-clock timer; returns what cancels it. */
export type HoldTimer = (ms: number, fire: () => void) => () => void;

/** A real timer that never keeps the process alive on its own. */
const realTimer: HoldTimer = (ms, fire) => {
  const handle = setTimeout(fire, ms);
  handle.unref?.();
  return () => clearTimeout(handle);
};

/**
 * The fetched signals of one run (a tick, a refresh, a stretch of a pass), committed together: with the
 * mirror's WAL and synchronous=FULL every commit is an fsync, and a tick's four or five writes in one commit
 * cost about one write's fsync (issue 21, item 3). Each write keeps its own savepoint (Mirror.batch): its
 * alert rules run and its alert rows are written in the same transaction as the data that raised them, and
 * a write that fails rolls back alone.
 *
 * A write waits at most `holdMs` of wall time for the others (the timer calls `onOverdue`), so a hung
 * request cannot hold back the alerts its tick's other fetches found; the run commits anyway when its
 * fetches have all settled.
 */
export class WriteBatch {
  private pending: PendingWrite[] = [];
  private cancelTimer: (() => void) | null = null;

  constructor(
    private readonly mirror: Mirror,
    private readonly holdMs: number,
    private readonly onOverdue: () => void,
    private readonly timer: HoldTimer = realTimer,
  ) {}

  /** Queues a fetched signal; the first one waiting starts the hold timer. */
  add(write: PendingWrite): void {
    this.pending.push(write);
    this.cancelTimer ??= this.timer(this.holdMs, () => {
      this.cancelTimer = null;
      this.onOverdue();
    });
  }

  /** Whether the oldest waiting write was fetched `holdMs` or more before `now` (the sync's clock). */
  overdue(now: number): boolean {
    const first = this.pending[0];
    return first !== undefined && now - first.fetchedAt >= this.holdMs;
  }

  /**
   * Stores every waiting write in one transaction and returns each one's outcome, in the order they were
   * fetched. When the commit itself fails nothing of the batch is stored and every write reports the error
   * (their sync states are untouched, so the next tick fetches them again).
   */
  commit(): StoredWrite[] {
    this.cancelTimer?.();
    this.cancelTimer = null;
    const writes = this.pending;
    this.pending = [];
    if (writes.length === 0) return [];
    try {
      return this.mirror.batch(() =>
        writes.map((pending): StoredWrite => {
          try {
            return { pending, result: this.mirror.writeSignal(pending.input) };
          } catch (error) {
            return { pending, error };
          }
        }),
      );
    } catch (error) {
      return writes.map((pending) => ({ pending, error }));
    }
  }
}
