import { RateBudget } from '../../../../shared/api/rateBudget.ts';
import type { MirrorDomain, RowChanges, RowCursor, SyncState } from '../../../../main/core/mirror/types.ts';
import type { SignalName } from '../../../../main/core/signals/catalog.ts';
import { budgetShape, tickSpendable } from '../../../../main/core/sync/budgetShape.ts';
import { JobBook, type BookPlan } from '../../../../main/core/sync/jobBook.ts';
import { DEFAULT_TICK_MS } from '../../../../main/core/sync/scheduler.ts';
import { CORE_SIGNALS, HISTORY_SIGNALS, jobKey, type SyncJob } from '../../../../main/core/sync/syncJobs.ts';

const MIN = 60_000;
const ACCOUNT = 1;
/** Every signal the production job book keeps for each domain (the signal registry's core and history). */
export const DOMAIN_SIGNALS: readonly SignalName[] = [...CORE_SIGNALS, ...HISTORY_SIGNALS];

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The two reads the job book makes of the mirror (domainsSince, syncStatesSince), over a portfolio kept in
 * memory: the planner's tests run hours of 5-second ticks over 1,000s of domains, with the very jobs the
 * production book builds (every signal of the registry, tiered), without SQLite's writes in the loop.
 */
export class BookWorld {
  private readonly domainRows: MirrorDomain[];
  private readonly latest = new Map<string, SyncState>();
  private readonly log: SyncState[] = [];

  constructor(domains: number, at = 0) {
    this.domainRows = Array.from({ length: domains }, (_, i) => ({
      accountId: ACCOUNT,
      domainId: i + 1,
      fqdn: `d${i + 1}.example`,
      firstSeenAt: iso(at),
      lastSeenAt: iso(at),
      removedAt: null,
    }));
  }

  get domains(): number {
    return this.domainRows.length;
  }

  /** A book over this world, as the syncer keeps one per account. */
  book(): JobBook {
    return new JobBook(this, ACCOUNT, new Map());
  }

  domainsSince(_accountId: number, cursor: RowCursor | null): RowChanges<MirrorDomain> {
    if (cursor === null) return { full: true, rows: [...this.domainRows], cursor: { epoch: 0, offset: 0 } };
    return { full: false, rows: [], cursor };
  }

  syncStatesSince(_accountId: number, cursor: RowCursor | null): RowChanges<SyncState> {
    const next = { epoch: 0, offset: this.log.length };
    if (cursor === null) return { full: true, rows: [...this.latest.values()], cursor: next };
    return { full: false, rows: this.log.slice(cursor.offset), cursor: next };
  }

  /** A successful read of `signal` (of the account when domainId is null) at `at`. */
  succeed(domainId: number | null, signal: SignalName, at: number): void {
    this.write(domainId, signal, { lastSuccessAt: iso(at), lastAttemptAt: iso(at) });
  }

  /** A failed read held until `until` (a missing scope stops the job until then). */
  fail(domainId: number | null, signal: SignalName, at: number, until: number, scope = false): void {
    const error = scope
      ? { status: 403, code: 'insufficient_scope', message: 'scope', missingScope: 'dns:read' }
      : { status: 503, code: 'unavailable', message: 'down', missingScope: null };
    const old = this.latest.get(jobKey(domainId, signal));
    this.write(domainId, signal, {
      lastSuccessAt: old?.lastSuccessAt ?? null,
      lastAttemptAt: iso(at),
      lastError: { ...error, requestId: 'r', retryable: !scope, at: iso(at) },
      consecutiveFailures: (old?.consecutiveFailures ?? 0) + 1,
      nextDueAt: iso(until),
    });
  }

  private write(domainId: number | null, signal: SignalName, over: Partial<SyncState>): void {
    const state: SyncState = Object.freeze({
      accountId: ACCOUNT,
      domainId,
      fqdn: domainId === null ? null : `d${domainId}.example`,
      signal,
      lastSuccessAt: null,
      lastAttemptAt: null,
      lastError: null,
      consecutiveFailures: 0,
      nextDueAt: null,
      periodSeconds: 0,
      ...over,
    });
    this.latest.set(jobKey(domainId, signal), state);
    this.log.push(state);
  }
}

/** One request the simulated syncer sent: when (ms from the start) and for which job. */
export interface Sent {
  at: number;
  job: SyncJob;
}

/**
 * The syncer's ticks on a fake clock with the production budget and job book (accountSyncer.ts): every
 * DEFAULT_TICK_MS the book plans what `tickSpendable` allows, the backfill's loan is lent, each picked
 * job takes its requests and succeeds at once, and a tick that read the domain list plans once more.
 * `before(world, start)` sets the mirror's state before the first tick; `edits(t)` is how many requests
 * the user's edits take at tick t; `shape` another token's limit and edit headroom (default 60, 6).
 */
export function simulateBook(
  domains: number,
  minutes: number,
  o: {
    before?: (world: BookWorld, start: number) => void;
    edits?: (t: number) => number;
    shape?: [number, number];
    alertShares?: Partial<Record<SignalName, number>>;
    afterTick?: (plan: BookPlan, budget: RateBudget) => void;
  } = {},
) {
  const start = Date.parse('2026-06-15T00:00:00Z');
  let now = start;
  const shape = budgetShape(...(o.shape ?? [60, 6]));
  const budget = new RateBudget({ ...shape, clock: { now: () => now, sleep: async () => undefined } });
  const world = new BookWorld(domains, start);
  o.before?.(world, start);
  const book = world.book();
  const sent: Sent[] = [];
  const edits: number[] = [];
  let last: BookPlan | null = null;
  for (let t = 0; t <= minutes * MIN; t += DEFAULT_TICK_MS) {
    now = start + t;
    for (let e = o.edits?.(t) ?? 0; e > 0; e--) if (budget.tryReserve(1)) edits.push(t);
    for (let pass = 0; pass < 2; pass++) {
      const plan = book.plan(now, {
        capacityPerMinute: shape.refillPerMinute,
        spendable: tickSpendable(budget),
        burst: shape.capacity - shape.headroom,
        alertShares: o.alertShares ?? {},
      });
      budget.lend(plan.allocation?.backfillLoanPerMinute ?? 0);
      for (const job of plan.picked) {
        // A job dearer than the burst takes what is there; its other pages would wait for the budget.
        const take = Math.min(job.cost, budget.available({ priority: 'background' }));
        if (!budget.tryReserve(take, { priority: 'background' }))
          throw new Error(`the plan took ${job.key} past the budget`);
        world.succeed(job.domainId, job.signal, now);
        sent.push({ at: t, job });
      }
      o.afterTick?.(plan, budget);
      last = plan;
      if (!plan.picked.some((job) => job.signal === 'domains')) break;
    }
  }
  return { sent, edits, world, book, shape, last: last!, start };
}
