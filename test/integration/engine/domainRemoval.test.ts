import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthwatchEvent } from '../../../main/core/app.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

const MIN = 60_000;
const DOMAINS = ['keep.example', 'gone.example', 'later.example'];

type SyncErrorEvent = Extract<AuthwatchEvent, { type: 'sync_error' }>;

describe('domains deleted on the service', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  let accountId: number;

  beforeAll(async () => {
    world = await startWorld(DOMAINS);
    engine = openEngine(world);
    ({
      account: { id: accountId },
    } = await engine.app.addAccount({ label: 'Acme', baseUrl: world.svc.baseUrl, token: world.token }));
    const [first] = await engine.app.syncNow({ accountId });
    expect(first).toMatchObject({ failed: 0 });
  });
  afterAll(async () => {
    await engine?.close();
    world.svc.expectNoContractViolations();
    await world?.close();
  });

  const deleteOnService = async (fqdn: string) => {
    const res = await world.svc.call('DELETE', `/domains/${world.domainIds[fqdn]}`, { token: world.token });
    expect(res.status).toBeLessThan(300);
  };
  const removed = () =>
    engine.mirror
      .listDomains(accountId, { includeRemoved: true })
      .filter((d) => d.removedAt !== null)
      .map((d) => d.fqdn);
  const syncErrors = () => engine.events.filter((e): e is SyncErrorEvent => e.type === 'sync_error');

  it('the next manual sync applies the domain list first and does not fail on the deleted domain', async () => {
    await deleteOnService('gone.example');
    // Six minutes on, the DNS changes are more urgent than the hour-old domain list.
    world.svc.clock.advance(6 * MIN);
    const [result] = await engine.app.syncNow({ accountId });
    expect(result!.errors).toEqual([]);
    expect(result).toMatchObject({ failed: 0, paused: null });
    expect(result!.fetched).toBeGreaterThan(0);
    expect(removed()).toEqual(['gone.example']);
    expect((await engine.app.overview({ accountId })).map((r) => r.fqdn).sort()).toEqual([
      'keep.example',
      'later.example',
    ]);
  });

  it('a scheduled tick meeting a 404 of a deleted domain checks the list: no error, the domain is removed', async () => {
    await deleteOnService('later.example');
    const before = syncErrors().length;
    world.svc.clock.advance(6 * MIN);
    await engine.runFor(MIN);
    expect(syncErrors().slice(before)).toEqual([]);
    expect(removed().sort()).toEqual(['gone.example', 'later.example']);
    expect((await engine.app.syncStatus()).accounts[0]!.errors).toEqual([]);
  });
});
