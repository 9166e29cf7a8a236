import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

const DOMAINS = ['one.example', 'two.example', 'three.example'];

describe('a service that allows only 5 requests per minute', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  const statuses: number[] = [];

  beforeAll(async () => {
    world = await startWorld(DOMAINS, { rateLimitPerMinute: 5 });
    // Let the requests of the set-up age out of the service's window.
    world.svc.clock.advance(60_000);
    const counting: FetchLike = async (request) => {
      const response = await fetch(request);
      statuses.push(response.status);
      return response;
    };
    engine = openEngine(world, { fetch: counting });
  });
  afterAll(async () => {
    await engine?.close();
    await world?.close();
  });

  it('syncs everything without a crash or lost data, backing off on 429 as told', async () => {
    const { account } = await engine.app.addAccount({
      label: 'Slow',
      baseUrl: world.svc.baseUrl,
      token: world.token,
    });
    const [result] = await engine.app.syncNow({ accountId: account.id });
    expect(result!.paused).toBeNull();
    expect(result!.rateLimitedUntil).toBeNull();
    // No fetch ended as a rate-limit failure: every 429 was waited out and the call made again.
    expect(result!.errors.filter((e) => e.code === 'http_error' || e.code === 'rate_limited')).toEqual([]);
    expect(engine.events.some((e) => e.type === 'rate_limited')).toBe(true);

    const overview = await engine.app.overview({ accountId: account.id });
    expect(overview.map((r) => r.fqdn).sort()).toEqual([...DOMAINS].sort());
    for (const row of overview) {
      expect(row.health).not.toBeNull();
      expect(row.score).not.toBeNull();
    }
    // Each signal's age is the mirror's (the window's rows carry only the newest).
    for (const row of engine.mirror.overview(account.id))
      expect(row.data.dns_changes?.lastSuccessAt).not.toBeNull();
    // The penalized bucket keeps retries rare: far fewer refusals than successful calls.
    const refused = statuses.filter((s) => s === 429).length;
    const answered = statuses.filter((s) => s !== 429).length;
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(answered / 2);
  });

  it('keeps ticking through the limit without throwing and without recording errors on signals', async () => {
    for (let i = 0; i < 12; i++) {
      world.svc.clock.advance(20_000);
      await engine.scheduler.tick();
    }
    const status = await engine.app.syncStatus();
    expect(
      status.accounts[0]!.errors.filter((e) => e.code === 'http_error' || e.code === 'rate_limited'),
    ).toEqual([]);
  });
});
