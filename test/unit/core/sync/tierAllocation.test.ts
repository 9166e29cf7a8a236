import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetShape } from '../../../../main/core/sync/budgetShape.ts';
import { effectivePeriodMs } from '../../../../main/core/sync/planner.ts';
import { DEFAULT_TICK_MS } from '../../../../main/core/sync/scheduler.ts';
import {
  ALERT_PERIOD_FLOOR_MS,
  allocateTiers,
  BACKFILL_LOAN_SHARE,
  KEEP_WINDOW_MS,
  LARGE_PORTFOLIO_SHARE,
} from '../../../../main/core/sync/tierAllocation.ts';
import {
  buildJobs,
  keptPeriodMs,
  REPAIR_NOW_MS,
  tierOf,
  type SyncJob,
} from '../../../../main/core/sync/syncJobs.ts';
import type { SignalName } from '../../../../main/core/signals/catalog.ts';
import { BookWorld, DOMAIN_SIGNALS, simulateBook } from './bookWorld.ts';

const MIN = 60_000;
const WEEK = 7 * 24 * 60 * MIN;
/** The engine's jobs for `domains` domains, as buildJobs makes them from the signal registry, never fetched. */
function portfolio(domains: number): SyncJob[] {
  const at = '2026-06-15T00:00:00.000Z';
  return buildJobs({
    domains: Array.from({ length: domains }, (_, i) => ({
      accountId: 1,
      domainId: i + 1,
      fqdn: `d${i + 1}.example`,
      firstSeenAt: at,
      lastSeenAt: at,
      removedAt: null,
    })),
    states: [],
    now: Date.parse(at),
  });
}

/**
 * The syncer's ticks over the production job book (bookWorld.ts: every signal of the registry, the
 * production budget and tick); returns every fetch and the user's edits. `fetchedAgoMs` gives jobs a last
 * success before the start (a mirror that already synced; null: never read); `edits(t)` is how many
 * requests the user's edits take at tick t.
 */
function simulate(
  domains: number,
  minutes: number,
  o: {
    fetchedAgoMs?: (job: { signal: SignalName; domainId: number | null; i: number }) => number | null;
    edits?: (t: number) => number;
    /** Another token's limit and edit headroom (default 60, 6). */
    shape?: [number, number];
  } = {},
) {
  const fetchedAgoMs = o.fetchedAgoMs;
  return simulateBook(domains, minutes, {
    ...(o.edits ? { edits: o.edits } : {}),
    ...(o.shape ? { shape: o.shape } : {}),
    ...(fetchedAgoMs
      ? {
          before: (world: BookWorld, start: number) => {
            let i = 0;
            const read = (domainId: number | null, signal: SignalName) => {
              const ago = fetchedAgoMs({ signal, domainId, i: i++ });
              if (ago !== null) world.succeed(domainId, signal, start - ago);
            };
            read(null, 'domains');
            for (let d = 1; d <= domains; d++) for (const signal of DOMAIN_SIGNALS) read(d, signal);
          },
        }
      : {}),
  });
}

describe('tier allocation', () => {
  it('gives health and failed sources of every domain one common period from what the weekly score, history and DNS changes and the hourly list leave', () => {
    // Every job read once (the backfill is done: while it runs it keeps within its room, below).
    for (const domains of [50, 200, 1000]) {
      const jobs = portfolio(domains).map((job) => ({ ...job, lastSuccessAt: 0 }));
      const a = allocateTiers(jobs, 54);
      const periodsOf = (signal: SignalName) =>
        new Set(jobs.filter((j) => j.signal === signal).map((j) => j.periodMs));
      expect(periodsOf('health')).toEqual(new Set([a.alertPeriodMs]));
      expect(periodsOf('failed_sources')).toEqual(new Set([a.alertPeriodMs]));
      expect(periodsOf('dns_changes')).toEqual(new Set([WEEK]));
      // The score and the history keep their targets at these sizes; the shares add up to the capacity.
      expect(a.keepFactor).toBe(1);
      const total = a.perMinute.account + a.perMinute.alert + a.perMinute.context + a.perMinute.history;
      expect(total).toBeCloseTo(54, 0);
      expect(
        effectivePeriodMs(
          jobs.find((j) => j.signal === 'security_score')!,
          1,
        ),
      ).toBe(WEEK);
    }
    // 1,000 domains: 2,000 alert polls a period on 54 − 10/60 − 0.98 ≈ 52.9 per minute (the weekly
    // score, DNS changes, current DNS, BIMI, VMC and histories, the 3-day MTA-STS and the 2-week domain
    // status of 1,000 domains: 0.98 a minute): every 37.8 minutes, within 2.2 % of the lower bound 2N/54 = 37.0.
    const synced = portfolio(1000).map((job) => ({ ...job, lastSuccessAt: 0 }));
    expect(allocateTiers(synced, 54).alertPeriodMs / MIN).toBeCloseTo(37.84, 1);
  });

  it('never polls an alert signal more often than once a minute, leaving the rest of a large budget unspent', () => {
    const a = allocateTiers(portfolio(5), 54);
    expect(a.alertPeriodMs).toBe(ALERT_PERIOD_FLOOR_MS);
    // Health and failed sources every minute: 5 × 2 a minute.
    expect(a.perMinute.alert).toBeCloseTo(10, 5);
  });

  it('stretches opened panels and the history alike to half the capacity when reading them all once is short', () => {
    // 10 domains with 200 opened panels (6-hourly) on 1 a minute: 0.56 a minute at their targets, more
    // than half; reading them all once takes 3.3 h, which with the alert period stays under the 6 h that
    // makes a gap, so the portfolio is not large and half the capacity is theirs (once read: a backfill
    // keeps within its own room).
    const jobs = portfolio(10).map((job) => ({ ...job, lastSuccessAt: 0 }));
    for (let p = 0; p < 200; p++)
      jobs.push({
        key: `${(p % 10) + 1}:panel${p}`,
        signal: 'mail_volume',
        fqdn: null,
        state: null,
        scopeMissing: false,
        domainId: (p % 10) + 1,
        priority: 1,
        targetPeriodMs: 6 * 60 * MIN,
        cost: 1,
        lastSuccessAt: 0,
        notBefore: null,
        tier: 'history',
      });
    const a = allocateTiers(jobs, 1);
    expect(a.large).toBe(false);
    expect(a.keepFactor).toBeGreaterThan(1);
    expect(a.perMinute.context + a.perMinute.history + a.perMinute.account).toBeCloseTo(0.5, 1);
  });

  it('stretches the score and history alike to a hundredth of the capacity once reading them all would hold the alert reads back 6 h (latency first)', () => {
    // 1,000 domains on 1 a minute: the score, the DNS changes and both histories at their weekly targets
    // would take 0.4 a minute, and reading each once 67 h. The alert reads get the rest: the user is told
    // that the score and history of a portfolio this large are read LARGE_PORTFOLIO_SHARE as often as
    // their targets allow, every one of them stretched by the same factor.
    const jobs = portfolio(1000);
    const a = allocateTiers(jobs, 1);
    expect(a.large).toBe(true);
    // While they were never read, the backfill's loan comes on top of the share (not from the alert reads).
    expect(a.perMinute.context + a.perMinute.history).toBeCloseTo(
      LARGE_PORTFOLIO_SHARE + BACKFILL_LOAN_SHARE,
      3,
    );
    const stretchOf = (signal: SignalName) =>
      jobs.find((j) => j.signal === signal)!.periodMs! / keptPeriodMs(signal);
    expect(stretchOf('security_score')).toBeCloseTo(a.keepFactor, 6);
    expect(stretchOf('health_history')).toBeCloseTo(a.keepFactor, 6);
    expect(stretchOf('dns_changes')).toBeCloseTo(a.keepFactor, 6);
    const alertPerMinute = 1 - a.perMinute.account - LARGE_PORTFOLIO_SHARE;
    expect(a.perMinute.alert).toBeCloseTo(alertPerMinute, 3);
  });
});

describe('tiered planning on the manual clock (production budget, 5-second ticks)', () => {
  it('watches every domain (health, failed sources) before any score, DNS changes or history is backfilled', () => {
    const { sent } = simulate(200, 40);
    const firstOther = sent.findIndex((s) => s.job.tier === 'history' || s.job.tier === 'context');
    const alertFetches = sent.slice(0, firstOther).filter((s) => s.job.tier === 'alert');
    expect(firstOther).toBeGreaterThan(0);
    expect(new Set(alertFetches.map((s) => s.job.key)).size).toBe(400);
    // Watching 200 domains takes 2 + 400 requests; at 54 a minute (12 at once first) that is 7.2 minutes.
    const watchedAt = alertFetches[alertFetches.length - 1]!.at;
    expect(watchedAt).toBeLessThan(7.5 * MIN);
  });

  it('spends at least 90 % of the 60/minute limit when demand exceeds it, and polls threats as often as health', () => {
    const { sent } = simulate(1000, 3 * 60);
    const lastHour = sent.filter((s) => s.at >= 2 * 60 * MIN);
    expect(lastHour.length / 60).toBeGreaterThanOrEqual(54 - 1);
    const fetchesOf = (signal: SignalName) => lastHour.filter((s) => s.job.signal === signal).length;
    expect(Math.abs(fetchesOf('failed_sources') - fetchesOf('health'))).toBeLessThan(40);
    expect(fetchesOf('dns_changes')).toBeLessThan(fetchesOf('health') / 2);
  });

  it('gives the alert signals the budget the history leaves between its 6-hourly batches (work-conserving)', () => {
    // A synced mirror of 1,000 domains: alert signals fetched within the last hour, the score within the
    // hour, the history 1 h ago (due again in a week). At its share the alert tier spends 52.9 a minute; the
    // rest (the weekly reads between their batches) goes to it too, and nothing is polled twice within a
    // minute.
    const { sent } = simulate(1000, 60, {
      fetchedAgoMs: ({ signal, i }) => {
        if (tierOf(signal) === 'history') return 60 * MIN;
        return ((i * 7919) % 3600) * 1000;
      },
    });
    const steady = sent.filter((s) => s.at >= 10 * MIN);
    expect(steady.length / 50).toBeGreaterThanOrEqual(53);
    expect(steady.some((s) => s.job.tier === 'history')).toBe(false);
    const last = new Map<string, number>();
    for (const s of sent) {
      const before = last.get(s.job.key);
      if (before !== undefined) expect(s.at - before).toBeGreaterThanOrEqual(ALERT_PERIOD_FLOOR_MS);
      last.set(s.job.key, s.at);
    }
  });

  it('never sends more than the limit in any 60-second window, whatever the portfolio, its state and the edits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (domains, editsPerTick, seed) => {
          // Some jobs never fetched, others fetched up to 6 h ago (a mirror mid-way); edits at random ticks.
          const ago = ({ i }: { i: number }) => {
            const h = Math.imul(i + 1, 2_654_435_761) ^ seed;
            return h % 5 === 0 ? null : (h >>> 0) % (360 * MIN);
          };
          const { sent, edits } = simulate(domains, 12, {
            fetchedAgoMs: ago,
            edits: (t) => (((t / DEFAULT_TICK_MS) ^ seed) % 7 === 0 ? editsPerTick : 0),
          });
          const times = [
            ...sent.flatMap((s) => Array.from({ length: Math.min(s.job.cost, 6) }, () => s.at)),
            ...edits,
          ].sort((a, b) => a - b);
          for (let i = 0, j = 0; i < times.length; i++) {
            while (times[i]! - times[j]! >= MIN) j++;
            expect(i - j + 1).toBeLessThanOrEqual(60);
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('latency first: the backfill of a large portfolio waits behind the alert reads, within a hundredth of the budget', () => {
  it('backfills 700 domains on a 12/minute token within the share once every domain is watched, the alert reads take the rest', () => {
    // 12 a minute (no edit headroom): 1,400 alert reads are a 2.2-hour period, and the 2,800 backfill
    // reads (score, DNS changes, histories) would hold every health poll back 4.3 more hours, past the 6 h
    // that leaves a gap in the derived history. They wait behind the due alert reads in their share.
    const refill = budgetShape(12, 0).refillPerMinute;
    const { sent } = simulate(700, 5.5 * 60, { shape: [12, 0] });
    const watchedAt = sent.filter((s) => s.job.tier === 'alert')[1399]!.at;
    const listPerMinute = 7 / 60;
    const alertPerMinute = refill * (1 - LARGE_PORTFOLIO_SHARE) - listPerMinute;
    // Over one alert period after every domain is watched (the backfill's slack comes once a period), from
    // 10 minutes on: the first alert reads come due a period after their first read, which was at the
    // whole budget, so for the first minutes nothing is due and the backfill takes what is there.
    const periodMin = 1400 / alertPerMinute;
    const from = watchedAt + 10 * MIN;
    const window = sent.filter((s) => s.at > from && s.at <= from + periodMin * MIN);
    const backfill = window.filter((s) => s.job.tier === 'context' || s.job.tier === 'history').length;
    const alert = window.filter((s) => s.job.tier === 'alert').length;
    expect(backfill).toBeGreaterThan(0);
    // The share, and the loan on top while it backfills (the alert reads keep what the share leaves).
    const room = refill * (LARGE_PORTFOLIO_SHARE + BACKFILL_LOAN_SHARE);
    expect(backfill / periodMin).toBeLessThanOrEqual(room * 1.1);
    // Never more than its room's worth in any KEEP_WINDOW_MS, however the alert reads fall due: the slots
    // no alert read is due in go to early alert reads, not to the backfill.
    const keepAt = sent.filter((s) => s.at > watchedAt && s.job.tier !== 'alert' && s.job.tier !== 'account');
    for (let i = 0, j = 0; i < keepAt.length; i++) {
      while (keepAt[i]!.at - keepAt[j]!.at >= KEEP_WINDOW_MS) j++;
      expect(i - j + 1).toBeLessThanOrEqual(Math.floor((room * KEEP_WINDOW_MS) / MIN));
    }
    expect(alert / periodMin).toBeGreaterThanOrEqual(alertPerMinute - 0.3);
    // No domain's health waits much longer than the alert period for its next poll.
    const healthAt = new Map<string, number[]>();
    for (const s of sent.filter((s) => s.job.signal === 'health'))
      healthAt.set(s.job.key, [...(healthAt.get(s.job.key) ?? []), s.at]);
    expect([...healthAt.values()].some((times) => times.length > 1)).toBe(true);
    for (const times of healthAt.values())
      for (let i = 1; i < times.length; i++)
        expect(times[i]! - times[i - 1]!).toBeLessThan(periodMin * 1.2 * MIN);
  });

  it('backfills a domain never read before the due re-reads of the others, so the backfill ends in a bounded time', () => {
    // 5,000 domains, every alert read just done, the first 4,000 domains backfilled over a year ago (their
    // score, DNS changes and histories all due again), the last 1,000 never backfilled.
    const start = Date.parse('2026-06-15T00:00:00Z');
    const world = new BookWorld(5000, start);
    world.succeed(null, 'domains', start - 1000);
    for (let d = 1; d <= 5000; d++)
      for (const signal of DOMAIN_SIGNALS) {
        if (tierOf(signal) === 'alert') world.succeed(d, signal, start - 1000);
        else if (d <= 4000) world.succeed(d, signal, start - 365 * 24 * 60 * MIN);
      }
    const { picked } = world.book().plan(start, { capacityPerMinute: 54, spendable: 10 });
    expect(picked).toHaveLength(10);
    for (const job of picked) {
      expect(job.tier === 'context' || job.tier === 'history').toBe(true);
      expect(job.domainId!).toBeGreaterThan(4000);
    }
  });

  it('repairs the history gaps of 5,000 domains within the share, so the alert period stays under the 6 h that makes a gap', () => {
    // A synced mirror whose app was off: every history is due for repair at once.
    const jobs = portfolio(5000).map((job) => ({
      ...job,
      lastSuccessAt: 0,
      ...(job.signal.endsWith('_history') ? { targetPeriodMs: REPAIR_NOW_MS } : {}),
    }));
    const a = allocateTiers(jobs, 54);
    expect(a.large).toBe(true);
    expect(a.perMinute.context + a.perMinute.history).toBeCloseTo(54 * LARGE_PORTFOLIO_SHARE, 1);
    expect(a.alertPeriodMs).toBeLessThan(4 * 60 * MIN);
  });

  it('reads the domain list of a large portfolio once an alert period, of a smaller one hourly', () => {
    const listPeriod = (domains: number) => {
      const jobs = portfolio(domains);
      const a = allocateTiers(jobs, 54);
      return { a, list: jobs.find((j) => j.signal === 'domains')!.periodMs! };
    };
    const large = listPeriod(5000);
    // 5,000 domains: 50 pages every ~3 h (the alert period), 0.27 a minute instead of 0.83.
    expect(large.list).toBeGreaterThan(3 * 60 * MIN);
    expect(Math.abs(large.list / large.a.alertPeriodMs - 1)).toBeLessThan(0.02);
    expect(large.a.perMinute.account).toBeCloseTo((50 * MIN) / large.list, 6);
    // 1,000 domains: hourly, as before.
    expect(listPeriod(1000).list).toBe(60 * MIN);
  });

  it('still runs a short catch-up (1,000 domains: 111 minutes at the whole budget) at once, as the first sync did', () => {
    const a = allocateTiers(portfolio(1000), 54);
    expect(a.large).toBe(false);
  });
});

describe('the first sync: every portfolio’s backfill yields to the alert reads (issue 37)', () => {
  it('keeps every domain’s health at the whole capacity’s period while 200 domains backfill on a loan, never over the limit', () => {
    // At the whole budget the backfill (score, BIMI, MTA-STS, DNS changes, histories: 800 reads here) held
    // every alert read back ~15 minutes after every domain was watched: twice the alert period, in the
    // very hours a user judges the app. A floor of 1 % taken from the alert reads made it take a week at
    // 1,000 domains. Now the alert reads keep the whole 54 a minute (a round-robin's rate) and the backfill
    // runs on 3 a minute borrowed from the edits' share of the limit: 800 reads in ~4.4 h, not 25.
    const refill = budgetShape(60, 6).refillPerMinute;
    const { sent } = simulate(200, 120);
    const watchedAt = sent.filter((s) => s.job.tier === 'alert')[399]!.at;
    const periodMin = 400 / (refill - 2 / 60);
    const healthAt = new Map<string, number[]>();
    for (const s of sent.filter((s) => s.job.signal === 'health'))
      healthAt.set(s.job.key, [...(healthAt.get(s.job.key) ?? []), s.at]);
    for (const times of healthAt.values())
      for (let i = 1; i < times.length; i++)
        expect(times[i]! - times[i - 1]!).toBeLessThan(periodMin * 1.05 * MIN);
    const backfill = sent.filter(
      (s) => s.at > watchedAt && (s.job.tier === 'context' || s.job.tier === 'history'),
    );
    const minutes = (120 * MIN - watchedAt) / MIN;
    const loan = refill * BACKFILL_LOAN_SHARE;
    expect(backfill.length / minutes).toBeGreaterThan(loan * 0.9);
    expect(backfill.length / minutes).toBeLessThanOrEqual(loan * 1.1 + 16 / minutes);
    // Sync alone never takes more than 57 in any 60 s: 3 of the limit stay the edits'.
    for (const s of sent)
      expect(sent.filter((x) => x.at > s.at - MIN && x.at <= s.at).length).toBeLessThanOrEqual(57);
  });

  it('leaves what the alert shares save to the alert reads, the backfill on its loan; a portfolio whose alert reads are at their floor does not yield', () => {
    const room = (domains: number, shares: Partial<Record<SignalName, number>> = {}) => {
      const jobs = portfolio(domains).map((job) =>
        job.tier === 'alert' ? { ...job, lastSuccessAt: 0, alertShare: shares[job.signal] ?? 1 } : job,
      );
      return allocateTiers(jobs, 54);
    };
    // No lean: the loan alone, 3 a minute on top of the capacity; the alert period counts on all 54.
    expect(room(200).yielding).toBe(true);
    expect(room(200).keepRoomPerMinute).toBeCloseTo(3, 6);
    expect(room(200).backfillLoanPerMinute).toBeCloseTo(3, 6);
    expect(room(200).alertPeriodMs / MIN).toBeCloseTo(400 / (54 - 2 / 60), 3);
    // Failed sources polled at 2/3 of the common rate: the same p95 for 1 − (5/3)/(0.95 × 2) = 12.3 % fewer
    // requests, which stay with the alert reads — the common period shortens by the lean's 5/3 for 2 — and
    // the backfill keeps its loan alone (half of the saving went to it once: the day-two grid lost the lean).
    const leaned = room(200, { failed_sources: 2 / 3 });
    expect(leaned.keepRoomPerMinute!).toBeCloseTo(3, 6);
    expect(leaned.alertPeriodMs / MIN).toBeCloseTo((200 * (5 / 3)) / (54 - 2 / 60), 3);
    // 8 domains: their 16 alert reads a minute are at the floor period with budget to spare: nothing to
    // yield to, the backfill runs at once.
    expect(room(8).yielding).toBe(false);
    expect(room(8).keepRoomPerMinute).toBeNull();
    // Once read, the portfolio is not yielding: its score and history keep their targets.
    const synced = allocateTiers(
      portfolio(200).map((job) => ({ ...job, lastSuccessAt: 0 })),
      54,
    );
    expect(synced.yielding).toBe(false);
    expect(synced.keepRoomPerMinute).toBeNull();
    expect(synced.backfillLoanPerMinute).toBe(0);
  });
});
