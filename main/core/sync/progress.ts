import { backfillEtaMs, backfillRoomPerMinute } from './backfillPromise.ts';
import type { SyncContext } from './syncContext.ts';
import { ALERT_SIGNALS, CORE_SIGNALS, HISTORY_SIGNALS, type SyncJob } from './syncJobs.ts';

/**
 * Progress and ETA of a backfill (ticks until every domain was fetched once) and of a manual pass, as
 * 'progress' events; the status's backfill figures come from here too.
 */

/**
 * A domain is backfilled once each of its core and history signals was attempted: its state says so, or
 * `attempted` (the keys a running tick has tried since `jobs` was read) does.
 */
export function backfillProgress(
  jobs: SyncJob[],
  attempted: ReadonlySet<string> = NONE,
): { domainsDone: number; domainsTotal: number; domainsWatched: number } {
  const pending = new Set<number>();
  const unwatched = new Set<number>();
  const all = new Set<number>();
  for (const job of jobs) {
    if (job.domainId === null || !(CORE_SIGNALS.includes(job.signal) || HISTORY_SIGNALS.includes(job.signal)))
      continue;
    all.add(job.domainId);
    if (wasAttempted(job, attempted)) continue;
    pending.add(job.domainId);
    // Watched: its alert-bearing reads are in. The rest of its backfill yields to them (tierAllocation.ts),
    // so a portfolio is watched long before its history is back-filled, and the app says both.
    if (ALERT_SIGNALS.includes(job.signal)) unwatched.add(job.domainId);
  }
  return {
    domainsDone: all.size - pending.size,
    domainsTotal: all.size,
    domainsWatched: all.size - unwatched.size,
  };
}

const NONE: ReadonlySet<string> = new Set();
const wasAttempted = (job: SyncJob, attempted: ReadonlySet<string>) =>
  Boolean(job.state?.lastAttemptAt) || attempted.has(job.key);

/**
 * Reports a tick's backfill: what is left is every job never attempted (and not stopped), as the job book
 * keeps it (jobBook.ts, backfill): counting it from every job each tick made the first sync's CPU grow
 * with N².
 */
export function emitBackfillProgress(
  ctx: SyncContext,
  figures: { domainsDone: number; domainsTotal: number; remaining: number; remainingKeep: number },
  startRequests: number,
  startedAt: number,
  /** A large portfolio's room for its context and history (tierAllocation.ts), else null. */
  keepRoomPerMinute: number | null,
  /** When the first day ends, while the backfill waits for it (firstDay.ts), else null. */
  waitsUntil: number | null = null,
): void {
  // A large portfolio's score and history backfill at their room, not at the whole budget: at 5,000
  // domains weeks, not hours, and the ETA says so. One that waits for the first day's end starts then, at
  // the room the promise counts on (backfillPromise.ts).
  const room =
    waitsUntil === null
      ? keepRoomPerMinute
      : (backfillRoomPerMinute(figures.domainsTotal, ctx.syncCapacity()) ?? keepRoomPerMinute);
  const held = room === null || room <= 0 ? 0 : figures.remainingKeep;
  const dayLeft = waitsUntil === null ? 0 : waitsUntil - ctx.o.clock.now();
  const heldWait = held === 0 ? 0 : backfillEtaMs(held, room!, dayLeft) / 1000;
  emitProgress(
    ctx,
    'backfill',
    { ...figures, remaining: figures.remaining - held },
    startRequests,
    startedAt,
    ctx.o.clock.now(),
    heldWait,
  );
}

/**
 * Reports a manual pass: what is left is what the pass (which owns the rule, `isLeft`, and tracks what it
 * attempted since `jobs` was read) still has to fetch, and a domain is done when nothing of it is left.
 */
export function emitPassProgress(
  ctx: SyncContext,
  jobs: SyncJob[],
  startRequests: number,
  startedAt: number,
  isLeft: (job: SyncJob, now: number) => boolean,
): void {
  const now = ctx.o.clock.now();
  const left = jobs.filter((j) => isLeft(j, now));
  const domains = new Set(jobs.filter((j) => j.domainId !== null).map((j) => j.domainId));
  const pending = new Set(left.map((j) => j.domainId));
  const domainsDone = [...domains].filter((d) => !pending.has(d)).length;
  const remaining = left.reduce((n, j) => n + j.cost, 0);
  emitProgress(
    ctx,
    'pass',
    { domainsDone, domainsTotal: domains.size, remaining },
    startRequests,
    startedAt,
    now,
  );
}

/**
 * Emits domains done/total, requests spent and an ETA made of the wait for the rate budget plus the time
 * requests have taken so far.
 */
function emitProgress(
  ctx: SyncContext,
  phase: 'backfill' | 'pass',
  counts: { domainsDone: number; domainsTotal: number; remaining: number },
  startRequests: number,
  startedAt: number,
  now: number,
  /** Seconds the rest takes on top (a large portfolio's backfill, at its room). */
  heldWait = 0,
): void {
  const { remaining } = counts;
  const spent = ctx.requests - startRequests;
  const budgetWait =
    (Math.max(0, remaining - ctx.o.budget.available({ priority: 'background' })) / ctx.syncCapacity()) * 60;
  const perRequest = spent > 0 ? (now - startedAt) / 1000 / spent : 0;
  const width = Math.max(1, ctx.o.concurrency ?? 4);
  ctx.emit({
    type: 'progress',
    accountId: ctx.o.accountId,
    phase,
    domainsDone: counts.domainsDone,
    domainsTotal: counts.domainsTotal,
    requestsSpent: spent,
    etaSeconds: Math.round(budgetWait + (perRequest * remaining) / width + heldWait),
  });
}
