import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import type { SignalName, SignalPayloads } from '../../../../main/core/signals/catalog.ts';
import { JobBook } from '../../../../main/core/sync/jobBook.ts';
import { compareUrgency, computeStretch, isDue, mayRunEarly } from '../../../../main/core/sync/planner.ts';
import { backfillProgress } from '../../../../main/core/sync/progress.ts';
import { buildJobs, GAP_REPAIR_MS, type SyncJob } from '../../../../main/core/sync/syncJobs.ts';
import { failedSources, health, score } from '../mirror/payloads.ts';

const MIN = 60_000;
const START = Date.parse('2026-03-01T00:00:00Z');
const DOMAINS = [1, 2, 3, 4, 5, 6];
const fqdnOf = (id: number) => `d${id}.example`;
const SIGNALS: SignalName[] = [
  'health',
  'failed_sources',
  'security_score',
  'dns_changes',
  'health_history',
  'score_history',
];
/** A signal fetched when the user opens a domain: its job exists once its state does. */
const PANEL: SignalName = 'sending_services';

type Op =
  | { kind: 'advance'; ms: number }
  | { kind: 'success'; domain: number; signal: SignalName }
  | { kind: 'sweep'; order: number[] }
  | { kind: 'failure'; domain: number; signal: SignalName; scope: boolean; holdMs: number }
  | { kind: 'list'; keep: number[] }
  | { kind: 'shares'; failed: number }
  | { kind: 'status' }
  | { kind: 'tick'; spendable: number; attempted: number; capacity: number };

const domainArb = fc.constantFrom(...DOMAINS);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.oneof(fc.integer({ min: 0, max: 20 * MIN }), fc.constant(GAP_REPAIR_MS + MIN)),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('success' as const),
      domain: domainArb,
      signal: fc.constantFrom(...SIGNALS),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('sweep' as const),
      order: fc.shuffledSubarray(DOMAINS, { minLength: 1 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('failure' as const),
      domain: domainArb,
      signal: fc.constantFrom(...SIGNALS, PANEL),
      scope: fc.boolean(),
      holdMs: fc.integer({ min: 0, max: 60 * MIN }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('list' as const),
      keep: fc.subarray(DOMAINS, { minLength: 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('shares' as const),
      failed: fc.constantFrom(1, 0.9, 2 / 3),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'status' as const }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('tick' as const),
      spendable: fc.integer({ min: 0, max: 12 }),
      attempted: fc.nat(4),
      // A small capacity stretches the alert period past the minute, where alert jobs may run early; a
      // tiny one makes the catch-up long (the backfill then waits behind the due alert reads).
      capacity: fc.constantFrom(54, 4, 1.5, 0.05),
    }),
  },
);

function payload(signal: SignalName, id: number, at: string): unknown {
  const names = { domain_id: id, fqdn: fqdnOf(id) };
  if (signal === 'health') return { ...health(at), ...names };
  if (signal === 'security_score') return { ...score(9, at), ...names };
  if (signal === 'failed_sources') return { ...failedSources(), ...names };
  if (signal === 'score_history') return { ...names, history: [] };
  return [];
}

function writeList(mirror: Mirror, accountId: number, ids: number[], at: number) {
  const payload: SignalPayloads['domains'] = ids.map((id) => ({
    id,
    fqdn: fqdnOf(id),
    status: 'active',
    group_id: null,
  }));
  mirror.writeSignal({ accountId, domainId: null, signal: 'domains', payload, fetchedAt: at });
}

/**
 * What a plan is, stated over every job of the account (buildJobs, allocated by computeStretch): the due
 * jobs it takes are the most urgent ones, in compareUrgency order (never-fetched first, a cheaper job never
 * jumping an unaffordable one); after them, only when no due job was left but for a large portfolio's
 * backfill held to its room, the alert jobs that may run early, stalest first; all within the budget.
 */
function expectPlanned(
  picked: readonly SyncJob[],
  jobs: SyncJob[],
  now: number,
  factor: number,
  spendable: number,
) {
  const byKey = new Map(jobs.map((j) => [j.key, j]));
  const cmp = (a: SyncJob, b: SyncJob) => compareUrgency(a, b, now, factor);
  const due = jobs.filter((j) => isDue(j, now, factor)).sort(cmp);
  const planned = picked.map((j) => byKey.get(j.key)!);
  const dueCount = planned.findIndex((j) => !isDue(j, now, factor));
  const pickedDue = dueCount < 0 ? planned : planned.slice(0, dueCount);
  expect(pickedDue.map((j) => j.key)).toEqual(due.slice(0, pickedDue.length).map((j) => j.key));
  const early = planned.slice(pickedDue.length);
  for (const job of early) expect(mayRunEarly(job, now), `${job.key} planned early`).toBe(true);
  expect(early.map((j) => j.key)).toEqual([...early].sort(cmp).map((j) => j.key));
  if (early.length > 0)
    for (const left of due.slice(pickedDue.length))
      expect(left.keepRoomPerMinute, `${left.key} left due while alert jobs ran early`).toBeDefined();
  const spent = planned.reduce((n, j) => n + Math.min(Math.max(1, Math.ceil(j.cost)), 6), 0);
  expect(spent).toBeLessThanOrEqual(Math.max(0, Math.floor(spendable)));
}

describe('the incremental planner (job book)', () => {
  it('plans what a book built afresh from the mirror plans, the most urgent due jobs first, over random sequences of ticks, fetches, failures, list changes and shares', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 5, maxLength: 60 }), (ops) => {
        let now = START;
        const mirror = openMirror(':memory:', { clock: { now: () => now } });
        const { id: accountId } = mirror.upsertAccount({ label: 'a', baseUrl: 'http://a/api/v1' });
        writeList(mirror, accountId, DOMAINS, now);
        let listed = [...DOMAINS];
        const bookGaps = new Map<string, number>();
        const book = new JobBook(mirror, accountId, bookGaps);
        const oracleGaps = new Map<string, number>();
        let shares: Partial<Record<SignalName, number>> = {};
        try {
          for (const op of ops) {
            if (op.kind === 'advance') now += op.ms;
            else if (op.kind === 'list') {
              writeList(mirror, accountId, op.keep, now);
              listed = op.keep;
            } else if (op.kind === 'shares') shares = { health: 1, failed_sources: op.failed };
            else if (op.kind === 'status') {
              // The status and passes build every job (SyncContext.jobs) on the map the book shares.
              for (const gaps of [bookGaps, oracleGaps])
                buildJobs({
                  domains: mirror.listDomains(accountId),
                  states: mirror.getSyncStates(accountId),
                  now,
                  gaps,
                  alertShares: shares,
                });
              book.gapsChanged();
            } else if (op.kind === 'sweep') {
              // Every signal of these domains fetched, a few seconds apart (as a backfill leaves them).
              for (const domain of op.order.filter((d) => listed.includes(d)))
                for (const signal of SIGNALS) {
                  now += 7_000;
                  mirror.writeSignal({
                    accountId,
                    domainId: domain,
                    signal,
                    payload: payload(signal, domain, new Date(now).toISOString()),
                    fetchedAt: now,
                  } as Parameters<Mirror['writeSignal']>[0]);
                }
            } else if (op.kind === 'success') {
              if (!listed.includes(op.domain)) continue;
              mirror.writeSignal({
                accountId,
                domainId: op.domain,
                signal: op.signal,
                payload: payload(op.signal, op.domain, new Date(now).toISOString()),
                fetchedAt: now,
              } as Parameters<Mirror['writeSignal']>[0]);
            } else if (op.kind === 'failure') {
              if (!listed.includes(op.domain)) continue;
              mirror.recordSyncError({
                accountId,
                domainId: op.domain,
                signal: op.signal,
                error: op.scope
                  ? {
                      status: 403,
                      code: 'insufficient_scope',
                      message: 'scope',
                      requestId: 'r',
                      retryable: false,
                    }
                  : { status: 503, code: 'unavailable', message: 'down', requestId: 'r', retryable: true },
                at: now,
                nextDueAt: now + op.holdMs,
              });
            } else {
              const options = {
                capacityPerMinute: op.capacity,
                spendable: op.spendable,
                burst: 6,
                alertShares: shares,
              };
              const plan = book.plan(now, options);
              // The book kept up tick by tick plans what a book built afresh from the mirror plans.
              const rebuilt = new JobBook(mirror, accountId, oracleGaps).plan(now, options);
              expect(plan.picked.map((j) => [j.key, j.periodMs])).toEqual(
                rebuilt.picked.map((j) => [j.key, j.periodMs]),
              );
              expect(plan.stretch).toEqual(rebuilt.stretch);
              // Gap repairs are remembered alike.
              expect(new Map([...bookGaps].sort())).toEqual(new Map([...oracleGaps].sort()));
              const jobs = buildJobs({
                domains: mirror.listDomains(accountId),
                states: mirror.getSyncStates(accountId),
                now,
                gaps: new Map(oracleGaps),
                alertShares: shares,
              });
              const stretch = computeStretch(jobs, op.capacity);
              expect(plan.stretch).toEqual(stretch);
              expectPlanned(plan.picked, jobs, now, stretch.factor, op.spendable);

              // Progress: the figures progress.ts gives from every job, with a few keys attempted meanwhile.
              const attempted = new Set(jobs.slice(0, op.attempted).map((j) => j.key));
              // The book keeps the backfill's figures; the domains watched are the status's (a full read).
              const { domainsWatched: _watched, ...full } = backfillProgress(jobs, attempted);
              const left = jobs.filter(
                (j) => !(j.state?.lastAttemptAt || attempted.has(j.key)) && !j.stopped,
              );
              expect(book.backfill(attempted, now)).toEqual({
                ...full,
                remaining: left.reduce((n, j) => n + j.cost, 0),
                remainingKeep: left
                  .filter((j) => j.tier === 'context' || j.tier === 'history')
                  .reduce((n, j) => n + j.cost, 0),
              });
              const listTried = jobs.some((j) => j.signal === 'domains' && j.state?.lastAttemptAt);
              const p = backfillProgress(jobs);
              expect(book.backfilling()).toBe(p.domainsDone < p.domainsTotal || !listTried);
            }
          }
        } finally {
          mirror.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('after the first plan, a tick reads only the states written since the last one', () => {
    let now = START;
    const mirror = openMirror(':memory:', { clock: { now: () => now } });
    const { id: accountId } = mirror.upsertAccount({ label: 'a', baseUrl: 'http://a/api/v1' });
    writeList(mirror, accountId, DOMAINS, now);
    const read: number[] = [];
    const spy = {
      domainsSince: mirror.domainsSince.bind(mirror),
      syncStatesSince: (id: number, cursor: Parameters<Mirror['syncStatesSince']>[1]) => {
        const changes = mirror.syncStatesSince(id, cursor);
        read.push(changes.rows.length);
        return changes;
      },
    };
    const book = new JobBook(spy, accountId, new Map());
    book.plan(now, { capacityPerMinute: 54, spendable: 6 });
    now += MIN;
    mirror.writeSignal({
      accountId,
      domainId: 2,
      signal: 'health',
      payload: payload('health', 2, new Date(now).toISOString()) as SignalPayloads['health'],
      fetchedAt: now,
    });
    read.length = 0;
    const plan = book.plan(now, { capacityPerMinute: 54, spendable: 6 });
    expect(read).toEqual([1]);
    // Domain 2's health is no longer among the never-fetched jobs planned first.
    expect(plan.picked.map((j) => j.key)).not.toContain('2:health');
    mirror.close();
  });
});
