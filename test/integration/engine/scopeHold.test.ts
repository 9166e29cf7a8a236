import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

const MIN = 60_000;

/** A fetch that records the paths it was asked for. */
function recordingFetch(paths: string[]): FetchLike {
  return async (request) => {
    paths.push(new URL(request.url).pathname);
    return fetch(request);
  };
}

describe('a token missing a scope, then replaced', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  const paths: string[] = [];
  let accountId: number;

  beforeAll(async () => {
    world = await startWorld(['scoped.example']);
    engine = openEngine(world, { fetch: recordingFetch(paths) });
  });
  afterAll(async () => {
    await engine?.close();
    world.svc.expectNoContractViolations();
    await world?.close();
  });

  const scopeAlerts = () => engine.app.listAlerts({ accountId, rule: 'scope_missing' });

  it('every manual sync asks again and reports the failure: it never claims success', async () => {
    const narrow = await world.svc.createToken(['account:read']);
    ({
      account: { id: accountId },
    } = await engine.app.addAccount({ label: 'Narrow', baseUrl: world.svc.baseUrl, token: narrow.token }));
    const [first] = await engine.app.syncNow({ accountId });
    expect(first).toMatchObject({ fetched: 0, failed: 1 });
    expect(await scopeAlerts()).toHaveLength(1);

    world.svc.clock.advance(5 * MIN);
    const asked = paths.filter((p) => p.endsWith('/domains')).length;
    const [second] = await engine.app.syncNow({ accountId });
    // The held-back domain list is fetched again (one more request) and its failure is reported.
    expect(paths.filter((p) => p.endsWith('/domains')).length).toBe(asked + 1);
    expect(second).toMatchObject({ failed: 1, heldBack: [] });
    expect(second!.errors).toEqual([
      expect.objectContaining({
        signal: 'domains',
        code: 'insufficient_scope',
        missingScope: 'domains:read',
      }),
    ]);
    // Still one episode of the alert.
    expect(await scopeAlerts()).toHaveLength(1);
  });

  it('storing a token with the scope resolves the alert at once and the next tick syncs the domains', async () => {
    const full = await world.svc.createToken(['account:read', 'domains:read']);
    await engine.app.updateAccount({ accountId, token: full.token });
    const alerts = await scopeAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.resolvedAt).not.toBeNull();

    // No waiting a day (or an hour) for the scope re-check: the very next tick asks for the list.
    world.svc.clock.advance(10_000);
    await engine.scheduler.tick();
    await engine.scheduler.tick();
    expect((await engine.app.overview({ accountId })).map((r) => r.fqdn)).toEqual(['scoped.example']);
    expect((await engine.app.syncStatus()).accounts[0]!.errors).toEqual([]);
  });
});
