/**
 * DNS changes are polled every fourth alert period (health shows the same record changes): when a health
 * poll tells of a record removed or restored, the engine fetches that domain's DNS changes right after, so the alert's
 * domain shows what changed without waiting hours at 1,000 domains.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import {
  addSyncedAccount,
  openEngine,
  publish,
  scan,
  startWorld,
  type EngineWorld,
  type TestEngine,
} from '../../support/engineWorld.ts';

const MIN = 60_000;

describe('a record change seen by health', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  let accountId: number;
  const paths: string[] = [];
  const recording: FetchLike = async (request) => {
    paths.push(new URL(request.url).pathname);
    return fetch(request);
  };

  beforeAll(async () => {
    world = await startWorld(['gone.example', 'calm.example']);
    engine = openEngine(world, { fetch: recording });
    accountId = await addSyncedAccount(engine, world);
  });
  afterAll(async () => {
    await engine?.close();
    await world?.close();
  });

  it('fetches that domain’s DNS changes right after the health poll that raised the alert', async () => {
    const gone = world.domainIds['gone.example']!;
    const calm = world.domainIds['calm.example']!;
    // Let the first DNS-changes polls age less than their period (4 min here) but health come due.
    await engine.runFor(2 * MIN);
    await publish(world.svc, 'gone.example', 'spf', null);
    await scan(world.svc);
    paths.length = 0;

    const disconnected = () =>
      engine.mirror
        .listAlerts({ accountId, rule: 'protocol_disconnected' })
        .filter((a) => a.fqdn === 'gone.example');
    for (let i = 0; i < 12 && disconnected().length === 0; i++) await engine.runFor(10_000);
    expect(disconnected()).toHaveLength(1);

    const healthAt = paths.lastIndexOf(`/api/v1/domains/${gone}/health`);
    expect(healthAt).toBeGreaterThanOrEqual(0);
    // The very next request of that domain is its DNS changes (the tick's other fetches may interleave).
    const next = paths.slice(healthAt + 1).find((p) => p.includes(`/domains/${gone}/`));
    expect(next).toBe(`/api/v1/domains/${gone}/dns/changes`);
    // The quiet domain's DNS changes were not due: nothing fetched them meanwhile.
    expect(paths).not.toContain(`/api/v1/domains/${calm}/dns/changes`);
    // And the domain page has the removal among its DNS events.
    const detail = await engine.app.domainDetail({ accountId, domainId: gone });
    expect(JSON.stringify(detail)).toMatch(/spf/i);
  });

  it('fetches them right after the health poll that shows the record restored, too', async () => {
    // Runs after the removal above: gone.example's DNS changes were fetched moments ago, so they are not
    // due again for a whole period; only the restore can bring them forward.
    const gone = world.domainIds['gone.example']!;
    await publish(world.svc, 'gone.example', 'spf', 'v=spf1 ip4:192.0.2.0/24 -all');
    await scan(world.svc);
    paths.length = 0;

    const restored = () =>
      engine.mirror
        .listAlerts({ accountId, rule: 'protocol_restored' })
        .filter((a) => a.fqdn === 'gone.example');
    for (let i = 0; i < 12 && restored().length === 0; i++) await engine.runFor(10_000);
    expect(restored()).toHaveLength(1);

    const healthAt = paths.lastIndexOf(`/api/v1/domains/${gone}/health`);
    expect(healthAt).toBeGreaterThanOrEqual(0);
    const next = paths.slice(healthAt + 1).find((p) => p.includes(`/domains/${gone}/`));
    expect(next).toBe(`/api/v1/domains/${gone}/dns/changes`);
  });
});
