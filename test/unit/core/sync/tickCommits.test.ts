/**
 * One mirror transaction per sync tick (issue 21, item 3): with WAL and synchronous=FULL each commit is an
 * fsync, so a tick's fetched signals are stored in one commit, counted here in the mirror file's WAL. The
 * alert a write raises is in the same commit as its data; a write the mirror refuses rolls back alone; a
 * hung request does not hold back what the tick's other fetches found.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateBudget } from '../../../../shared/api/rateBudget.ts';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { AccountSyncer } from '../../../../main/core/sync/accountSyncer.ts';
import { budgetShape } from '../../../../main/core/sync/budgetShape.ts';
import type { SyncEvent } from '../../../../main/core/sync/events.ts';
import type { LooseApi, LooseCallInit } from '../../../../main/core/sync/looseApi.ts';
import { WriteBatch } from '../../../../main/core/sync/writeBatch.ts';
import { walCommits } from '../../../support/walCommits.ts';
import { ApiError } from '../../../../shared/api/apiError.ts';
import { notFoundMeaning, signalOfPath } from '../../../../main/core/signals/catalog.ts';
import { recordedAnswer } from '../../../support/recordedAnswers.ts';

const notSetUp = (path: string) =>
  new ApiError({
    status: 404,
    code: 'not_found',
    message: `not set up: ${path}`,
    requestId: 'r',
    retryable: false,
  });

const START = Date.parse('2026-06-15T12:00:00Z');
const IDS = [101, 102, 103, 104, 105, 106, 107, 108];
const fqdn = (id: number) => `d${id}.example`;
const PROTOCOLS = { dmarc: true, spf: true, mta_sts: false, tls_rpt: false, bimi: false };

/** The account's domains as GET /domains lists them. */
const domainList = () => IDS.map((id) => ({ id, fqdn: fqdn(id), status: 'active', group_id: null }));

/** A health answer of domain `id` scanned at `at`: SPF and DMARC passing, SPF failing when `spfBroken`. */
function healthAnswer(id: number, spfBroken: boolean, at: number) {
  const protocols = { ...PROTOCOLS, spf: !spfBroken };
  return {
    domain_id: id,
    fqdn: fqdn(id),
    source: 'guard_history',
    result: 'Protected',
    protocols,
    protocols_passing: Object.values(protocols).filter(Boolean).length,
    total_protocols: 5,
    scanned_at: new Date(at).toISOString(),
  };
}

/** The service as the engine reads it: every domain passing SPF and DMARC unless `broken` says otherwise. */
function fakeService(now: () => number) {
  const broken = new Set<number>();
  /** Requests whose answer waits until `release()` (a hung connection). */
  const hung = new Map<number, () => void>();
  /** Armed by hangSecondHealth(): the health read that follows another one in the same tick hangs. */
  let hangArmed = false;
  let healthReadsThisTick = 0;
  let hungId: number | null = null;
  const answers: Record<string, (id: number) => unknown> = {
    '/domains/{domain_id}/health': (id) => healthAnswer(id, broken.has(id), now()),
    '/domains/{domain_id}/failed-sources': (id) => ({ domain_id: id, fqdn: fqdn(id), failed_sources: [] }),
    '/domains/{domain_id}/security-score': (id) => ({
      domain_id: id,
      fqdn: fqdn(id),
      score: 4,
      max_score: 10,
      interpretation: 'fair',
      message: 'Computed from the latest scan',
      computed_at: new Date(now()).toISOString(),
    }),
    '/domains/{domain_id}/security-score/history': (id) => ({ domain_id: id, fqdn: fqdn(id), history: [] }),
    '/domains/{domain_id}/mta-sts': (id) => ({
      domain_id: id,
      mode: 'enforce',
      max_age: 604800,
      mx: [`mx.${fqdn(id)}`],
    }),
  };
  const lists: Record<string, (id: number) => unknown[]> = {
    '/domains': domainList,
    '/domains/{domain_id}/health/history': () => [],
    '/domains/{domain_id}/dns/changes': () => [],
  };
  const idOf = (init?: LooseCallInit) => Number(init?.params?.path?.domain_id ?? 0);
  /** What this fake could not answer (a signal without a recorded answer), said where the test starts failing. */
  const problems: string[] = [];
  const recorded = (signal: NonNullable<ReturnType<typeof signalOfPath>>, path: string, id: number) => {
    try {
      return recordedAnswer(signal, path, id, fqdn(id));
    } catch (error) {
      problems.push(String(error));
      throw error;
    }
  };
  const api: LooseApi = {
    baseUrl: 'http://service.test/api/v1',
    async get(path, init) {
      const id = idOf(init);
      const signal = signalOfPath(path);
      // A polled signal this fake does not model answers as its definition says the service would, so a new
      // signal needs no line here: 404 for one whose 404 means "not set up" (`fetch.notFound: 'absent'`),
      // else its recorded answer (a 404 would mean the domain is gone).
      if (!answers[path] && signal && notFoundMeaning(signal) === 'absent') throw notSetUp(path);
      const answer = answers[path] ?? (signal ? () => recorded(signal, path, id) : null);
      if (!answer) throw new Error(`unexpected GET ${path}`);
      if (path.endsWith('/health') && healthReadsThisTick++ > 0 && hangArmed) {
        hangArmed = false;
        hungId = id;
        await new Promise<void>((resolve) => hung.set(id, resolve));
      }
      return { data: answer(id), requestId: 'r', status: 200, envelope: {} };
    },
    post: () => Promise.reject(new Error('no edits here')),
    patch: () => Promise.reject(new Error('no edits here')),
    delete: () => Promise.reject(new Error('no edits here')),
    async *paginate(path, init) {
      const signal = signalOfPath(path);
      const id = idOf(init);
      const list = lists[path] ?? (signal ? () => recorded(signal, path, id) as unknown[] : null);
      if (!list) throw new Error(`unexpected list ${path}`);
      yield* list(id);
    },
  };
  return {
    api,
    broken,
    problems,
    /** Said before each tick: the tick's health reads are counted from here. */
    tickStarts: () => void (healthReadsThisTick = 0),
    /**
     * The next tick that reads the health of two or more domains answers the first and hangs the second until
     * released (which domain that is depends on the planner's order, so it is asked afterwards: hungId()).
     */
    hangSecondHealth: () => void (hangArmed = true),
    hungId: () => hungId,
    release: (id: number) => hung.get(id)?.(),
  };
}

describe('one mirror transaction per sync tick', () => {
  let dir: string;
  let file: string;
  let mirror: Mirror;
  let now: number;
  let accountId: number;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-tick-'));
    file = join(dir, 'mirror.db');
    now = START;
    mirror = openMirror(file, { clock: { now: () => now } });
    accountId = mirror.upsertAccount({ label: 'Acme', baseUrl: 'http://service.test/api/v1' }).id;
  });
  afterEach(() => {
    mirror.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function syncer(
    service: ReturnType<typeof fakeService>,
    writeHold?: { ms: number; timer: FakeTimer['start'] },
  ) {
    const clock = {
      now: () => now,
      sleep: async (ms: number) => void (now += Math.max(0, ms)),
    };
    const shape = budgetShape(60, 6);
    const events: SyncEvent[] = [];
    let deliveries = 0;
    const s = new AccountSyncer({
      mirror,
      accountId,
      api: service.api,
      budget: new RateBudget({ ...shape, clock }),
      ratePerMinute: shape.refillPerMinute,
      clock,
      emit: (e) => events.push(e),
      afterWrite: async () => void (deliveries += 1),
      ...(writeHold ? { writeHold } : {}),
    });
    return { s, events, deliveries: () => deliveries };
  }

  it('stores every signal a tick fetched in one commit, alerts included', async () => {
    const service = fakeService(() => now);
    const { s, events } = syncer(service);
    // The first ticks read the list and start the backfill; count from a tick that fetches several signals.
    const perTick: { commits: number; stored: number }[] = [];
    const alerted = () => mirror.listAlerts({ accountId }).some((a) => a.rule === 'protocol_disconnected');
    for (let tick = 0; tick < 100 && !alerted(); tick++) {
      if (tick === 8) service.broken.add(103); // SPF of d103 disconnects mid-way
      now += 5_000;
      const commits = walCommits(file);
      const before = events.filter((e) => e.type === 'changed').length;
      await s.tick();
      perTick.push({
        commits: walCommits(file) - commits,
        stored: events.filter((e) => e.type === 'changed').length - before,
      });
    }
    // The last tick read d103's broken health: its alert commits with the tick, and the DNS changes the
    // alert asks for at once are fetched after that commit and stored in a second one.
    expect(service.problems, 'GETs the fake service could not answer').toEqual([]);
    const last = perTick.pop()!;
    expect(last).toEqual({ commits: 2, stored: 7 });
    // The first tick reads the domain list, commits it, and plans again for the domains it listed (the
    // re-plan needs the list stored): two runs, two commits.
    const first = perTick.shift()!;
    expect(first.commits).toBe(2);
    const busy = perTick.filter((t) => t.stored >= 2);
    expect(busy.length, 'ticks that stored several signals').toBeGreaterThan(5);
    for (const t of busy) expect(t.commits, `a tick storing ${t.stored} signals`).toBe(1);
    const alert = mirror.listAlerts({ accountId }).find((a) => a.rule === 'protocol_disconnected');
    expect(alert?.fqdn).toBe('d103.example');
    expect(alert?.details.protocol).toBe('spf');
  });

  it('a write the mirror refuses rolls back alone: the rest of the batch commits, once', () => {
    mirror.writeSignal({
      accountId,
      domainId: null,
      signal: 'domains',
      payload: domainList(),
      fetchedAt: now,
    });
    let broken = false;
    const health = (id: number) =>
      ({
        accountId,
        domainId: id,
        signal: 'health',
        payload: healthAnswer(id, broken && id === 102, now),
        fetchedAt: now,
      }) as const;
    const job = { key: 'k', signal: 'health' } as never;
    mirror.writeSignal(health(102)); // d102 passes first: its next answer disconnects SPF
    broken = true;
    const batch = new WriteBatch(
      mirror,
      5_000,
      () => undefined,
      () => () => undefined,
    );
    batch.add({ job, input: health(101), startedAt: now, fetchedAt: now });
    // A per-domain signal without its domain: the mirror refuses it.
    batch.add({ job, input: { ...health(101), domainId: null }, startedAt: now, fetchedAt: now });
    batch.add({ job, input: health(102), startedAt: now, fetchedAt: now });
    const commits = walCommits(file);
    const stored = batch.commit();
    expect(walCommits(file) - commits).toBe(1);
    expect(stored.map((w) => ('error' in w ? 'refused' : 'stored'))).toEqual(['stored', 'refused', 'stored']);
    expect(mirror.getSyncStates(accountId).filter((st) => st.signal === 'health')).toHaveLength(2);
    // The alert of d102's write is stored with it.
    expect(mirror.listAlerts({ accountId }).map((a) => [a.fqdn, a.rule])).toEqual([
      ['d102.example', 'protocol_disconnected'],
    ]);
  });

  it('a hung request does not hold back the alerts the tick’s other fetches found', async () => {
    const service = fakeService(() => now);
    const timer = new FakeTimer();
    const { s, deliveries } = syncer(service, { ms: 50, timer: timer.start });
    for (let tick = 0; tick < 8; tick++) {
      now += 5_000;
      service.tickStarts();
      await s.tick();
    }
    // Find a tick that reads health of several domains: break them all, hang one of its reads.
    for (const id of IDS) service.broken.add(id);
    service.hangSecondHealth();
    let ticking: Promise<void> | null = null;
    for (let tick = 0; tick < 40 && !ticking; tick++) {
      now += 5_000;
      service.tickStarts();
      let settled = false;
      const run = s.tick().then(() => void (settled = true));
      await flushMicrotasks();
      if (!settled) ticking = run;
    }
    expect(service.problems, 'GETs the fake service could not answer').toEqual([]);
    expect(ticking, 'a tick waits on the hung read').not.toBeNull();
    const hungId = service.hungId()!;
    expect(timer.armed, 'with the signals its other fetches stored waiting').toBe(true);
    const open = () => mirror.listAlerts({ accountId }).filter((a) => a.rule === 'protocol_disconnected');
    const before = open().length;
    const delivered = deliveries();
    timer.fire(); // the hold is over: what was fetched is committed while the read still hangs
    await flushMicrotasks();
    expect(open().length).toBeGreaterThan(before);
    expect(deliveries()).toBeGreaterThan(delivered);
    expect(open().some((a) => a.fqdn === fqdn(hungId))).toBe(false);
    service.release(hungId);
    await ticking;
    expect(open().some((a) => a.fqdn === fqdn(hungId))).toBe(true);
  });
});

/** A hold timer fired by hand. */
class FakeTimer {
  private fireFn: (() => void) | null = null;
  start = (_ms: number, fire: () => void) => {
    this.fireFn = fire;
    return () => {
      this.fireFn = null;
    };
  };
  get armed(): boolean {
    return this.fireFn !== null;
  }
  fire(): void {
    const f = this.fireFn;
    this.fireFn = null;
    f?.();
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
