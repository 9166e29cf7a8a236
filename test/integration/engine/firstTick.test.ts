/**
 * The first sync's first tick knows nothing but the domain list: once the list is read, the same tick goes
 * on to the listed domains' alert-bearing reads with the budget it has left, instead of leaving it to the
 * next tick (where the bucket's burst cap would throw that refill away).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

describe('the first tick of a new account', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  const paths: string[] = [];
  const recording: FetchLike = async (request) => {
    paths.push(new URL(request.url).pathname);
    return fetch(request);
  };

  beforeAll(async () => {
    world = await startWorld(['one.example', 'two.example', 'three.example']);
    engine = openEngine(world, { fetch: recording });
  });
  afterAll(async () => {
    await engine?.close();
    await world?.close();
  });

  it('reads the domain list and then, in the same tick, the first domains’ health and failed sources', async () => {
    await engine.app.addAccount({ label: 'Acme', baseUrl: world.svc.baseUrl, token: world.token });
    paths.length = 0;
    await engine.scheduler.tick();

    const list = paths.indexOf('/api/v1/domains');
    expect(list).toBe(0);
    const one = world.domainIds['one.example']!;
    const after = paths.slice(list + 1);
    expect(after).toContain(`/api/v1/domains/${one}/health`);
    expect(after).toContain(`/api/v1/domains/${one}/failed-sources`);
    // Still within the sync's burst (a tenth of the limit): the edit reserve is left alone.
    expect(paths.length).toBeLessThanOrEqual(6);
  });
});
