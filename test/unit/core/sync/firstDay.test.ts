/**
 * The first day belongs to the alerts (issue 37): for ALERTS_FIRST_DAY_MS after an account's first sync
 * started, the alert reads of a portfolio that must yield get the sync's whole rate (57 a minute at 60, the
 * backfill's loan included) and its backfill waits; then the loan is the backfill's until it is complete.
 * Simulated over the job book the syncer plans with, the production budget and the production tick pace.
 */
import { describe, expect, it } from 'vitest';
import { RateBudget } from '../../../../shared/api/rateBudget.ts';
import type { MirrorDomain, RowCursor, SyncState } from '../../../../main/core/mirror/types.ts';
import { budgetShape, tickSpendable } from '../../../../main/core/sync/budgetShape.ts';
import { ALERTS_FIRST_DAY_MS, inFirstDay } from '../../../../main/core/sync/firstDay.ts';
import { JobBook } from '../../../../main/core/sync/jobBook.ts';
import { DEFAULT_TICK_MS } from '../../../../main/core/sync/scheduler.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** The job runner's width and one request's round trip. */
const WIDTH = 4;
const ROUND_TRIP_MS = 100;

/** The part of the mirror the job book reads: domains and sync states, with a cursor over what changed. */
function fakeMirror(domains: number) {
  const list: MirrorDomain[] = Array.from({ length: domains }, (_, i) => ({
    accountId: 1,
    domainId: i + 1,
    fqdn: `d${i + 1}.example`,
    removedAt: null,
  })) as unknown as MirrorDomain[];
  const log: SyncState[] = [];
  const latest = new Map<string, SyncState>();
  const since = <T>(rows: readonly T[], all: () => T[], cursor: RowCursor | null) =>
    cursor === null
      ? { full: true as const, rows: all(), cursor: { epoch: 1, offset: rows.length } }
      : { full: false as const, rows: rows.slice(cursor.offset), cursor: { epoch: 1, offset: rows.length } };
  return {
    domainsSince: (_account: number, cursor: RowCursor | null) => since(list, () => [...list], cursor),
    syncStatesSince: (_account: number, cursor: RowCursor | null) =>
      since(log, () => [...latest.values()], cursor),
    /** A successful read of `signal` at `at`. */
    read(domainId: number | null, signal: SyncState['signal'], at: number) {
      const iso = new Date(at).toISOString();
      const state = Object.freeze({
        accountId: 1,
        domainId,
        fqdn: domainId === null ? null : `d${domainId}.example`,
        signal,
        lastSuccessAt: iso,
        lastAttemptAt: iso,
        lastError: null,
        consecutiveFailures: 0,
        nextDueAt: null,
        periodSeconds: 60,
      }) as SyncState;
      log.push(state);
      latest.set(`${domainId ?? 'account'}:${signal}`, state);
    },
  };
}

type Sent = { at: number; tier: string };

/**
 * Runs the account from its first sync (at 0, when it was added) for `hours`, ticking on the scheduler's 5 s
 * marks (slow ticks: slowTicks.test.ts, through the syncer). `restartAt`: the app restarts then (a new book,
 * a new budget; the mirror and the account's createdAt are kept).
 */
function simulate(domains: number, hours: number, restartAt: number | null = null) {
  const account = { createdAt: new Date(0).toISOString() };
  const mirror = fakeMirror(domains);
  let now = 0;
  const shape = budgetShape(60, 6);
  const clock = { now: () => now, sleep: async () => undefined };
  let budget = new RateBudget({ ...shape, clock });
  let book = new JobBook(mirror, 1, new Map());
  const sent: Sent[] = [];
  for (let mark = 0; mark <= hours * HOUR; mark += DEFAULT_TICK_MS) {
    if (now > mark) continue; // a tick still running at its mark skips it
    now = mark;
    if (restartAt !== null && mark >= restartAt) {
      restartAt = null;
      budget = new RateBudget({ ...shape, clock });
      book = new JobBook(mirror, 1, new Map());
    }
    const { picked, allocation } = book.plan(now, {
      capacityPerMinute: shape.refillPerMinute,
      spendable: tickSpendable(budget),
      burst: shape.capacity - shape.headroom,
      firstDay: inFirstDay(account, now),
    });
    budget.lend(allocation?.backfillLoanPerMinute ?? 0);
    picked.forEach((job, i) => {
      now = Math.max(now, mark + Math.floor(i / WIDTH) * ROUND_TRIP_MS);
      now += budget.waitTimeMs(1, { priority: 'background' });
      expect(budget.tryReserve(1, { priority: 'background' })).toBe(true);
      sent.push({ at: now, tier: job.tier! });
      mirror.read(job.domainId, job.signal, now);
    });
  }
  return sent;
}

function perMinute(sent: Sent[], from: number, to: number) {
  const span = sent.filter((s) => s.at >= from && s.at < to);
  const minutes = (to - from) / MIN;
  const count = (keep: boolean) =>
    span.filter((s) => (s.tier === 'context' || s.tier === 'history') === keep).length / minutes;
  return { alert: span.filter((s) => s.tier === 'alert').length / minutes, backfill: count(true) };
}

function busiestMinute(sent: Sent[]): number {
  let most = 0;
  for (let i = 0, j = 0; i < sent.length; i++) {
    while (sent[j]!.at <= sent[i]!.at - MIN) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('the first day belongs to the alerts (issue 37)', () => {
  const day = ALERTS_FIRST_DAY_MS;
  const sent = simulate(200, 26);

  it('gives 200 domains’ alert reads 57 a minute for the first day and holds their backfill', () => {
    // Every domain is watched within minutes; from then on the first day's sync is the alert reads'.
    const first = perMinute(sent, 30 * MIN, day);
    expect(first.alert).toBeGreaterThanOrEqual(56.5);
    expect(first.backfill).toBeLessThan(0.1);
  });

  it('after the first day lends the backfill its 3 a minute, the alert reads keeping 54', () => {
    const after = perMinute(sent, day + 10 * MIN, day + 2 * HOUR);
    expect(after.backfill).toBeGreaterThanOrEqual(2.5);
    expect(after.backfill).toBeLessThanOrEqual(3.1);
    expect(after.alert).toBeGreaterThanOrEqual(53.5);
  });

  it('never sends more than 57 background requests in any 60 s', () => {
    expect(busiestMinute(sent)).toBeLessThanOrEqual(57);
  });

  it('keeps the first day’s clock across a restart: the backfill still waits for the day’s end', () => {
    const restarted = simulate(200, 26, 12 * HOUR);
    const rest = perMinute(restarted, 12 * HOUR + 10 * MIN, day);
    expect(rest.backfill).toBeLessThan(0.1);
    expect(rest.alert).toBeGreaterThanOrEqual(56.5);
    expect(perMinute(restarted, day + 10 * MIN, day + 2 * HOUR).backfill).toBeGreaterThanOrEqual(2.5);
  });

  it('backfills a portfolio whose alert reads leave room at once, first day or not (28 domains)', () => {
    const small = simulate(28, 1);
    const reads = small.filter((s) => s.tier === 'context' || s.tier === 'history').length;
    expect(reads).toBe(28 * 9);
  });
});
