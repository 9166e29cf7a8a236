/**
 * Issue 37: the sync reaches its 57 a minute (54 and the loan) even when ticks outlast their 5 s. A tick
 * still running at the scheduler's next mark skips it; by the mark after, the bucket had refilled past the
 * sync's burst of 6 and lost the rest (56.3 a minute measured where 57 was lent). The syncer plans once more
 * at the end of a tick that outlasted its 5 s. Driven here through the real syncer, mirror and budget on a
 * virtual clock, as the scheduler ticks (a mark passed while a tick ran is skipped).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RateBudget } from '../../../../shared/api/rateBudget.ts';
import { ApiError } from '../../../../shared/api/apiError.ts';
import { openMirror } from '../../../support/openMirror.ts';
import { recordedAnswer } from '../../../support/recordedAnswers.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { notFoundMeaning, signalOfPath } from '../../../../main/core/signals/catalog.ts';
import { AccountSyncer } from '../../../../main/core/sync/accountSyncer.ts';
import { budgetShape } from '../../../../main/core/sync/budgetShape.ts';
import type { LooseApi, LooseCallInit } from '../../../../main/core/sync/looseApi.ts';
import { DEFAULT_TICK_MS } from '../../../../main/core/sync/scheduler.ts';
import { tierOf } from '../../../../main/core/sync/syncJobs.ts';

const MIN = 60_000;
let mirror: Mirror | undefined;
afterEach(() => mirror?.close());

/**
 * A service of `domains` domains answering every read at once, but the first read of a slow tick (6 s); each
 * request takes the budget first, as the API client does.
 */
function service(domains: number, clock: { now: number }, budget: RateBudget) {
  const fqdn = (id: number) => `d${id}.example`;
  const sent: { at: number; tier: string }[] = [];
  let slowNext = false;
  const idOf = (init?: LooseCallInit) => Number(init?.params?.path?.domain_id ?? 0);
  const api: LooseApi = {
    baseUrl: 'http://service.test/api/v1',
    async get(path, init) {
      const signal = signalOfPath(path);
      if (!signal) throw new Error(`unexpected GET ${path}`);
      await budget.reserve(1, { priority: init?.priority ?? 'foreground' });
      sent.push({ at: clock.now, tier: tierOf(signal) });
      if (slowNext) {
        // The slow answer holds one of the runner's slots while the tick's other reads go out and come back.
        slowNext = false;
        await new Promise((resolve) => setImmediate(resolve));
        clock.now += 6_000;
      }
      if (notFoundMeaning(signal) === 'absent')
        throw new ApiError({
          status: 404,
          code: 'not_found',
          message: path,
          requestId: 'r',
          retryable: false,
        });
      const id = idOf(init);
      return { data: recordedAnswer(signal, path, id, fqdn(id)), requestId: 'r', status: 200, envelope: {} };
    },
    post: () => Promise.reject(new Error('no edits here')),
    patch: () => Promise.reject(new Error('no edits here')),
    delete: () => Promise.reject(new Error('no edits here')),
    async *paginate(path, init) {
      const signal = signalOfPath(path);
      await budget.reserve(1, { priority: init?.priority ?? 'foreground' });
      if (path === '/domains') {
        sent.push({ at: clock.now, tier: 'account' });
        yield* Array.from({ length: domains }, (_, i) => ({
          id: i + 1,
          fqdn: fqdn(i + 1),
          status: 'active',
          group_id: null,
        }));
        return;
      }
      if (!signal) throw new Error(`unexpected list ${path}`);
      sent.push({ at: clock.now, tier: tierOf(signal) });
      const id = idOf(init);
      const answer = recordedAnswer(signal, path, id, fqdn(id));
      yield* Array.isArray(answer) ? answer : [];
    },
  };
  return { api, sent, slow: () => void (slowNext = true) };
}

describe('ticks that outlast their 5 s (issue 37)', () => {
  it('keeps 200 domains’ first-day sync at 57 a minute when every third tick takes 6 s, never over 57 in 60 s', async () => {
    const clock = { now: Date.parse('2026-06-15T12:00:00Z') };
    const start = clock.now;
    const time = { now: () => clock.now, sleep: async (ms: number) => void (clock.now += Math.max(0, ms)) };
    mirror = openMirror(':memory:', { clock: time });
    const account = mirror.upsertAccount({ label: 'MSP', baseUrl: 'http://service.test/api/v1' });
    const shape = budgetShape(60, 6);
    const budget = new RateBudget({ ...shape, clock: time });
    const s = service(200, clock, budget);
    const syncer = new AccountSyncer({
      mirror,
      accountId: account.id,
      api: s.api,
      budget,
      ratePerMinute: shape.refillPerMinute,
      clock: time,
      emit: () => undefined,
      afterWrite: async () => undefined,
      writeHold: { ms: 0 },
    });
    let ticks = 0;
    for (let at = start; at <= start + 30 * MIN;) {
      clock.now = Math.max(clock.now, at);
      if (++ticks % 3 === 0) s.slow();
      await syncer.tick();
      at = Math.max(
        at + DEFAULT_TICK_MS,
        Math.floor(clock.now / DEFAULT_TICK_MS) * DEFAULT_TICK_MS + DEFAULT_TICK_MS,
      );
    }
    const steady = s.sent.filter((r) => r.at >= start + 10 * MIN && r.at < start + 30 * MIN);
    expect(steady.length / 20).toBeGreaterThanOrEqual(56.5);
    let busiest = 0;
    for (let i = 0, j = 0; i < s.sent.length; i++) {
      while (s.sent[j]!.at <= s.sent[i]!.at - MIN) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    expect(busiest).toBeLessThanOrEqual(57);
  });
});
