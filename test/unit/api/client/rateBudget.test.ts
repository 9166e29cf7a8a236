import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, RateBudget, RateBudgets } from '../../../../shared/api/client.ts';
import { RateBudgetExceeded } from '../../../../shared/api/rateBudget.ts';
import { fakeClock } from './fakeClock.ts';
import { json, specError, startTestServer, type TestServer } from './testServer.ts';

describe('RateBudget', () => {
  it('starts full at 60 and refuses the 61st request within the same instant', () => {
    const budget = new RateBudget({ clock: fakeClock() });
    expect(budget.available()).toBe(60);
    for (let i = 0; i < 60; i++) expect(budget.tryReserve()).toBe(true);
    expect(budget.tryReserve()).toBe(false);
    expect(budget.available()).toBe(0);
  });

  it('refills at the configured rate and never beyond capacity', () => {
    const clock = fakeClock();
    const budget = new RateBudget({ capacity: 10, refillPerMinute: 30, clock });
    expect(budget.tryReserve(10)).toBe(true);
    clock.advance(1999);
    expect(budget.available()).toBe(0);
    clock.advance(1);
    expect(budget.available()).toBe(1);
    clock.advance(10_000);
    expect(budget.available()).toBe(6);
    clock.advance(3_600_000);
    expect(budget.available()).toBe(10);
  });

  it('reserve() waits on the injected sleep exactly as long as the refill needs', async () => {
    const clock = fakeClock();
    const budget = new RateBudget({ capacity: 2, refillPerMinute: 60, clock });
    await budget.reserve(2);
    await budget.reserve(1);
    expect(clock.sleeps).toEqual([1000]);
    await budget.reserve(2);
    expect(clock.sleeps).toEqual([1000, 2000]);
  });

  it('reserve() refuses to wait past maxWaitMs, and rejects an amount that can never fit', async () => {
    const clock = fakeClock();
    const budget = new RateBudget({ capacity: 5, refillPerMinute: 6, clock });
    await budget.reserve(5);
    await expect(budget.reserve(1, { maxWaitMs: 5000 })).rejects.toBeInstanceOf(RateBudgetExceeded);
    await expect(budget.reserve(6)).rejects.toBeInstanceOf(RangeError);
    expect(clock.sleeps).toEqual([]);
  });

  it('with a window limit, waits for the oldest reservation to leave the last 60 s, whatever the bucket holds', async () => {
    const clock = fakeClock();
    const budget = new RateBudget({
      capacity: 10,
      refillPerMinute: 600,
      windowLimit: 4,
      windowReserve: 1,
      clock,
    });
    for (let i = 0; i < 3; i++) expect(budget.tryReserve(1, { priority: 'background' })).toBe(true);
    // The bucket still holds 7, but the background's window (4 less the reserve of 1) is full.
    expect(budget.available({ priority: 'background' })).toBe(0);
    expect(budget.available({ priority: 'foreground' })).toBe(1);
    clock.advance(20_000);
    await budget.reserve(1);
    await budget.reserve(1);
    // The second foreground reservation waited until the first of the three left the window.
    expect(clock.sleeps).toEqual([40_001]);
  });

  it('counts, when asked, the window’s reservations that leave it within a given time as free; reserve() waits for them', async () => {
    const clock = fakeClock();
    const budget = new RateBudget({ capacity: 10, refillPerMinute: 600, windowLimit: 3, clock });
    expect(budget.tryReserve(2)).toBe(true);
    clock.advance(300);
    expect(budget.tryReserve(1)).toBe(true);
    // 59.9 s after the first two: they leave the window in 100 ms, the third in 400 ms.
    clock.advance(59_600);
    expect(budget.available()).toBe(0);
    expect(budget.available({ withinMs: 200 })).toBe(2);
    expect(budget.available({ withinMs: 1_000 })).toBe(3);
    await budget.reserve(2);
    expect(clock.sleeps).toEqual([101]);
  });

  it('a loan raises the refill until it is ended', () => {
    const clock = fakeClock();
    const budget = new RateBudget({ capacity: 10, refillPerMinute: 6, clock });
    expect(budget.tryReserve(10)).toBe(true);
    budget.lend(6);
    clock.advance(10_000);
    expect(budget.available()).toBe(2);
    budget.lend(0);
    clock.advance(10_000);
    expect(budget.available()).toBe(3);
  });

  it('background reservations leave the headroom for the user’s own edits', () => {
    const budget = new RateBudget({ capacity: 10, headroom: 3, clock: fakeClock() });
    expect(budget.available({ priority: 'background' })).toBe(7);
    for (let i = 0; i < 7; i++) expect(budget.tryReserve(1, { priority: 'background' })).toBe(true);
    expect(budget.tryReserve(1, { priority: 'background' })).toBe(false);
    expect(budget.available({ priority: 'background' })).toBe(0);
    expect(budget.available({ priority: 'foreground' })).toBe(3);
    expect(budget.tryReserve(3, { priority: 'foreground' })).toBe(true);
    expect(budget.tryReserve(1, { priority: 'foreground' })).toBe(false);
  });

  it('a reservation can ask for its own headroom', () => {
    const budget = new RateBudget({ capacity: 10, clock: fakeClock() });
    expect(budget.tryReserve(6, { headroom: 5 })).toBe(false);
    expect(budget.tryReserve(5, { headroom: 5 })).toBe(true);
  });

  it('background reserve() waits until the bucket is above the headroom again', async () => {
    const clock = fakeClock();
    const budget = new RateBudget({ capacity: 10, refillPerMinute: 60, headroom: 2, clock });
    await budget.reserve(8, { priority: 'background' });
    await budget.reserve(1, { priority: 'background' });
    expect(clock.sleeps).toEqual([1000]);
  });

  it('penalize() empties the bucket until Retry-After, then refills at half speed for the slowdown', () => {
    const clock = fakeClock();
    const budget = new RateBudget({
      capacity: 60,
      refillPerMinute: 60,
      slowdownMs: 60_000,
      slowdownFactor: 0.5,
      clock,
    });
    expect(budget.ratePerMinute()).toBe(60);
    budget.penalize(10_000);
    expect(budget.available()).toBe(0);
    expect(budget.ratePerMinute()).toBe(0);
    expect(budget.snapshot().pausedUntil).toBe(clock.now() + 10_000);
    clock.advance(10_000);
    expect(budget.available()).toBe(0);
    expect(budget.ratePerMinute()).toBe(30);
    clock.advance(10_000);
    expect(budget.available()).toBe(5);
    clock.advance(50_000); // the rest of the 60 s slowdown: 50 s at 0.5/s
    expect(budget.available()).toBe(30);
    expect(budget.ratePerMinute()).toBe(60);
    clock.advance(20_000); // back to the normal 1/s
    expect(budget.available()).toBe(50);
  });

  it('waitTimeMs() accounts for the pause and the slowed refill', () => {
    const clock = fakeClock();
    const budget = new RateBudget({
      capacity: 60,
      refillPerMinute: 60,
      slowdownMs: 60_000,
      slowdownFactor: 0.5,
      clock,
    });
    budget.penalize(5000);
    // 5 s paused, then 0.5 token/s: 3 tokens need 6 s more.
    expect(budget.waitTimeMs(3)).toBe(11_000);
  });

  it('a waiting reserve() on the real clock can be cancelled', async () => {
    const budget = new RateBudget({ capacity: 1, refillPerMinute: 1 });
    budget.tryReserve();
    const controller = new AbortController();
    const waiting = budget.reserve(1, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user closed the window')), 20);
    await expect(waiting).rejects.toThrow('user closed the window');
    expect(budget.available()).toBe(0);
  });

  it('rejects impossible configurations', () => {
    expect(() => new RateBudget({ capacity: 0 })).toThrow(RangeError);
    expect(() => new RateBudget({ capacity: 5, headroom: 5 })).toThrow(RangeError);
    expect(() => new RateBudget({ refillPerMinute: -1 })).toThrow(RangeError);
  });

  it('RateBudgets gives each account key its own shared bucket', () => {
    const budgets = new RateBudgets({ capacity: 2, clock: fakeClock() });
    const a = budgets.forAccount('profile-a');
    expect(budgets.forAccount('profile-a')).toBe(a);
    a.tryReserve(2);
    expect(budgets.forAccount('profile-b').available()).toBe(2);
    expect(a.available()).toBe(0);
  });
});

describe('the client spends the budget', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const health = (api: ReturnType<typeof createApiClient>, priority?: 'background' | 'foreground') =>
    api.get('/domains/{domain_id}/health', {
      params: { path: { domain_id: 1 } },
      ...(priority ? { priority } : {}),
    });

  it('takes one token per HTTP attempt, retries included', async () => {
    let n = 0;
    server.handle((req, res) => {
      n += 1;
      if (n === 1) return specError(req, res, 503, 'score_unavailable', 'Later.');
      json(res, 200, { data: {} });
    });
    const clock = fakeClock([0]);
    const budget = new RateBudget({ capacity: 10, clock });
    const api = createApiClient({ baseUrl: server.origin, token: 'aw_live_budget', clock, budget });
    await health(api);
    expect(server.requests).toHaveLength(2);
    expect(budget.available()).toBe(8);
  });

  it('waits for the budget instead of sending, and reports the wait as an event', async () => {
    server.handle((_req, res) => json(res, 200, { data: {} }));
    const clock = fakeClock();
    const budget = new RateBudget({ capacity: 1, refillPerMinute: 60, clock });
    const waits: number[] = [];
    const api = createApiClient({
      baseUrl: server.origin,
      token: 'aw_live_budget',
      clock,
      budget,
      onEvent: (e) => {
        if (e.type === 'budget_wait') waits.push(e.waitMs);
      },
    });
    await health(api);
    await health(api);
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([1000]);
    expect(waits).toEqual([1000]);
  });

  it('a 429 penalizes the budget by its Retry-After', async () => {
    server.handle((req, res) =>
      specError(req, res, 429, 'http_error', 'Slow down.', {}, { 'retry-after': '120' }),
    );
    const clock = fakeClock();
    const budget = new RateBudget({ clock });
    const api = createApiClient({ baseUrl: server.origin, token: 'aw_live_budget', clock, budget });
    await expect(health(api)).rejects.toMatchObject({ status: 429, retryAfterMs: 120_000 });
    expect(budget.available()).toBe(0);
    expect(budget.snapshot().pausedUntil).toBe(clock.now() + 120_000);
  });

  it('fails fast with rate_limited when the budget would make the call wait too long; nothing is sent', async () => {
    server.handle((_req, res) => json(res, 200, { data: {} }));
    const clock = fakeClock();
    const budget = new RateBudget({ clock });
    budget.penalize(600_000);
    const api = createApiClient({
      baseUrl: server.origin,
      token: 'aw_live_budget',
      clock,
      budget,
      budgetMaxWaitMs: 30_000,
    });
    const error = await health(api).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'rate_limited', status: 0, retryable: true });
    expect((error as ApiError).retryAfterMs).toBeGreaterThanOrEqual(600_000);
    expect(server.requests).toHaveLength(0);
  });

  it('background calls leave the headroom; a foreground call still goes through', async () => {
    server.handle((_req, res) => json(res, 200, { data: {} }));
    const clock = fakeClock();
    const budget = new RateBudget({ capacity: 3, refillPerMinute: 1, headroom: 1, clock });
    const api = createApiClient({
      baseUrl: server.origin,
      token: 'aw_live_budget',
      clock,
      budget,
      defaultPriority: 'background',
      budgetMaxWaitMs: 1000,
    });
    await health(api);
    await health(api);
    await expect(health(api)).rejects.toMatchObject({ code: 'rate_limited' });
    await health(api, 'foreground');
    expect(server.requests).toHaveLength(3);
  });
});
