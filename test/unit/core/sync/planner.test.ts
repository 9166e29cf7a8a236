import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../../../main/core/sync/backoff.ts';
import { nextDueAt, type PlanJob } from '../../../../main/core/sync/planner.ts';
import { ALERT_SIGNALS, keptPeriodMs, tierOf } from '../../../../main/core/sync/syncJobs.ts';
import type { SignalName } from '../../../../main/core/signals/catalog.ts';
import { BookWorld, DOMAIN_SIGNALS, simulateBook, type Sent } from './bookWorld.ts';

// The planner is the production job book (jobBook.ts) over the signal registry's jobs: every signal of
// signals/defs, tiered as buildJobs makes them. These tests state what a user sees of its plans.

const MIN = 60_000;
const T0 = Date.parse('2026-06-15T00:00:00Z');

function intervalsOf(sent: readonly Sent[], key: string, from = 0): number[] {
  const times = sent.filter((s) => s.job.key === key && s.at >= from).map((s) => s.at);
  return times.slice(1).map((t, i) => t - times[i]!);
}
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A synced mirror: every job read once, at a spread of instants within the last `spreadMs` (or its period). */
function synced(spreadMs: (signal: SignalName) => number) {
  return (world: BookWorld, start: number) => {
    world.succeed(null, 'domains', start - 1_000);
    let i = 0;
    for (let d = 1; d <= world.domains; d++)
      for (const signal of DOMAIN_SIGNALS)
        world.succeed(d, signal, start - 1_000 - ((i++ * 7919) % Math.max(1, spreadMs(signal))));
  };
}

describe('planner: the budget and the periods', () => {
  it('keeps every target when the budget suffices (10 domains): the alert reads at their one-minute floor, the weekly reads not again', () => {
    const { sent, last } = simulateBook(10, 3 * 60);
    expect(last.allocation!.keepFactor).toBe(1);
    for (const signal of ALERT_SIGNALS) {
      const gaps = intervalsOf(sent, `3:${signal}`, 10 * MIN);
      expect(mean(gaps)).toBeGreaterThanOrEqual(MIN);
      expect(mean(gaps)).toBeLessThan(1.1 * MIN);
    }
    // The score, the histories and the other weekly (or 3-day) reads: read once in 3 hours.
    for (const signal of DOMAIN_SIGNALS.filter((s) => tierOf(s) !== 'alert'))
      expect(sent.filter((s) => s.job.key === `3:${signal}`)).toHaveLength(1);
    expect(mean(intervalsOf(sent, 'account:domains'))).toBeCloseTo(60 * MIN, -4);
  });

  it('serves 1,000 domains fairly: every alert signal of every domain at the one period the allocation gives the tier, none starved', () => {
    const { sent, last } = simulateBook(1000, 4 * 60, {
      before: synced((signal) => (tierOf(signal) === 'alert' ? 30 * MIN : keptPeriodMs(signal))),
    });
    const period = last.allocation!.alertPeriodMs;
    // 2,000 alert reads a period on what the list and the weekly reads leave of 54 a minute.
    expect(period / MIN).toBeGreaterThan(2000 / 54);
    expect(period / MIN).toBeLessThan(2000 / 52);
    for (const signal of ALERT_SIGNALS) {
      const perDomain = Array.from({ length: 1000 }, (_, d) =>
        mean(intervalsOf(sent, `${d + 1}:${signal}`, 60 * MIN)),
      );
      // Observed within 10 % of the tier's period for every alert signal alike; the worst domain within 25 %.
      expect(Math.abs(mean(perDomain) - period) / period).toBeLessThan(0.1);
      expect(Math.max(...perDomain)).toBeLessThan(period * 1.25);
    }
  });

  it('leaves a signal stopped for a missing scope out of the demand: the other alert reads come round twice as often', () => {
    const periodWith = (stopFailed: boolean) =>
      simulateBook(500, 1, {
        before: (world, start) => {
          synced(() => 10 * MIN)(world, start);
          if (stopFailed)
            for (let d = 1; d <= 500; d++)
              world.fail(d, 'failed_sources', start - 1_000, start + 86_400_000, true);
        },
      }).last.allocation!.alertPeriodMs;
    expect(periodWith(true) / periodWith(false)).toBeCloseTo(0.5, 1);
  });
});

describe('planner: the user’s edits and the headroom', () => {
  /** The fewest requests left after a tick that planned, and the longest a whole headroom's edit would wait. */
  function headroomOf(edits?: (t: number) => number) {
    let lowest = Number.POSITIVE_INFINITY;
    let longestEditWait = 0;
    const run = simulateBook(500, 10, {
      ...(edits ? { edits } : {}),
      afterTick: (plan, budget) => {
        if (plan.picked.length === 0) return;
        lowest = Math.min(lowest, budget.available());
        longestEditWait = Math.max(longestEditWait, budget.waitTimeMs(run0Headroom));
      },
    });
    return { ...run, lowest, longestEditWait };
  }
  const run0Headroom = 6;

  it('never spends the headroom kept for the user’s edits, even during a 500-domain backfill', () => {
    const { lowest, longestEditWait, shape } = headroomOf();
    expect(shape.headroom).toBe(run0Headroom);
    expect(lowest).toBeGreaterThanOrEqual(shape.windowReserve);
    expect(longestEditWait).toBeLessThanOrEqual(5_001);
  });

  it('yields to the user’s edits: sync spends less while edits consume tokens, and never the headroom', () => {
    // The user makes 3 edits every 10 s during the first 10 minutes.
    const busy = headroomOf((t) => (t > 0 && t % 10_000 === 0 ? 3 : 0));
    const idle = headroomOf();
    expect(busy.sent.length).toBeLessThan(idle.sent.length - 150);
    expect(busy.lowest).toBeGreaterThanOrEqual(busy.shape.windowReserve);
    expect(busy.longestEditWait).toBeLessThanOrEqual(5_001);
  });
});

describe('planner: order, budget and backoff', () => {
  /** A book over `domains` domains whose every job was just read, but for `ago` (key → ms before T0). */
  function bookAt(
    domains: number,
    ago: Record<string, number>,
    world = new BookWorld(domains, T0),
    fail?: (world: BookWorld) => void,
  ) {
    world.succeed(null, 'domains', T0 - (ago['account:domains'] ?? 0));
    for (let d = 1; d <= domains; d++)
      for (const signal of DOMAIN_SIGNALS) world.succeed(d, signal, T0 - (ago[`${d}:${signal}`] ?? 0));
    fail?.(world);
    return world.book();
  }
  const plan = (book: ReturnType<typeof bookAt>, spendable: number, now = T0, capacityPerMinute = 54) =>
    book.plan(now, { capacityPerMinute, spendable }).picked.map((j) => j.key);

  it('backfills a new portfolio by tier, whole domains in order: the list, then every domain’s alert signals', () => {
    const book = new BookWorld(3, T0).book();
    const alert = [1, 2, 3].flatMap((d) => ALERT_SIGNALS.map((s) => `${d}:${s}`));
    expect(plan(book, 1 + alert.length)).toEqual(['account:domains', ...alert]);
    // Then each domain's score and other context reads, domain by domain, before any history.
    const context = DOMAIN_SIGNALS.filter((s) => tierOf(s) === 'context');
    expect(plan(book, 1 + alert.length + context.length + 1).slice(1 + alert.length)).toEqual([
      ...context.map((s) => `1:${s}`),
      `2:${context[0]}`,
    ]);
  });

  it('runs the most urgent first: staleness × its tier’s weight', () => {
    // 2 domains: the alert period is its one-minute floor; the score's is a week.
    const book = bookAt(2, {
      '1:health': 3 * MIN, // 3 periods × 4
      '2:failed_sources': 1.5 * MIN, // 1.5 × 4
      '1:security_score': 2.5 * 7 * 24 * 60 * MIN, // 2.5 × 2
    });
    expect(plan(book, 10)).toEqual(['1:health', '2:failed_sources', '1:security_score']);
  });

  it('plans nothing when only the headroom is left', () => {
    expect(plan(new BookWorld(2, T0).book(), 0)).toEqual([]);
    expect(plan(new BookWorld(2, T0).book(), -3)).toEqual([]);
  });

  it('does not let cheap jobs starve an expensive one that is more urgent (the list of 500 domains: 5 pages)', () => {
    const ago = { 'account:domains': 3 * 60 * MIN, '7:health': 25 * MIN };
    expect(plan(bookAt(500, ago), 3)).toEqual([]);
    expect(plan(bookAt(500, ago), 6)).toEqual(['account:domains', '7:health']);
  });

  it('holds a failing job until its backoff expires, and skips one stopped for a missing scope', () => {
    const book = bookAt(1, {}, undefined, (world) => {
      world.fail(1, 'health', T0, T0 + 10 * MIN);
      world.fail(1, 'failed_sources', T0, T0 + 24 * 60 * MIN, true);
    });
    expect(plan(book, 10, T0 + 9 * MIN)).toEqual([]);
    expect(plan(book, 10, T0 + 10 * MIN)).toEqual(['1:health']);
  });

  it('takes budget nothing due wants for the alert reads read a minute ago or more, the stalest first, never sooner', () => {
    // A token of 1 a minute: 6 alert reads come round every ~6 minutes. Once every due job fitted, the alert
    // tier takes the rest early (work-conserving), once a minute at most.
    const world = new BookWorld(3, T0);
    const ago = { '1:health': 20 * MIN, '2:health': 50_000, '3:health': 70_000, '1:failed_sources': 65_000 };
    const book = bookAt(3, ago, world);
    expect(book.plan(T0, { capacityPerMinute: 1, spendable: 0 }).allocation!.alertPeriodMs).toBeGreaterThan(
      5 * MIN,
    );
    expect(plan(book, 1, T0, 1)).toEqual(['1:health']);
    expect(plan(book, 10, T0, 1)).toEqual(['1:health', '3:health', '1:failed_sources']);
    for (const [d, signal] of [
      [1, 'health'],
      [3, 'health'],
      [1, 'failed_sources'],
    ] as const)
      world.succeed(d, signal, T0);
    expect(plan(book, 10, T0 + 10_000, 1)).toEqual(['2:health']);
  });

  it('backs off exponentially from one minute, capped at one hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((n) => backoffDelayMs(n) / MIN)).toEqual([
      1, 2, 4, 8, 16, 32, 60, 60, 60,
    ]);
  });

  it('reports when the next job becomes due', () => {
    const base = (over: Partial<PlanJob>): PlanJob => ({
      key: 'k',
      domainId: 1,
      priority: 1,
      targetPeriodMs: 10 * MIN,
      cost: 1,
      lastSuccessAt: 0,
      notBefore: null,
      ...over,
    });
    const jobs = [base({ key: 'a', lastSuccessAt: 0 }), base({ key: 'b', lastSuccessAt: 2 * MIN })];
    expect(nextDueAt(jobs, 1)).toBe(10 * MIN);
    expect(nextDueAt(jobs, 2)).toBe(20 * MIN);
    expect(nextDueAt([base({ key: 'held', notBefore: 61 * MIN }), base({ stopped: true })], 1)).toBe(
      61 * MIN,
    );
  });
});
