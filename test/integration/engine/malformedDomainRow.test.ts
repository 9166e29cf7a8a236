/**
 * One malformed entry in GET /domains (a name that is not a domain name) does not fail the whole list: on a
 * first sync the other domains sync and the entry is reported in words on the list's sync state; a known
 * domain whose entry turns malformed later is kept as it was, not removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

const MIN = 60_000;

describe('a malformed entry in the domain list', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  let corrupt = true;

  beforeAll(async () => {
    world = await startWorld(['first.example', 'odd.example', 'third.example']);
    // In front of the real service: the list names odd.example "odd name!.example" while `corrupt` holds.
    const rewriting: FetchLike = async (request) => {
      const response = await fetch(request);
      if (!corrupt || request.method !== 'GET' || !new URL(request.url).pathname.endsWith('/domains'))
        return response;
      const body = (await response.json()) as { data: { fqdn: string }[] };
      for (const row of body.data) if (row.fqdn === 'odd.example') row.fqdn = 'odd name!.example';
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    };
    engine = openEngine(world, { fetch: rewriting });
  });
  afterAll(async () => {
    await engine?.close();
    await world?.close();
  });

  const listed = () =>
    engine.mirror
      .listDomains(accountIdOf())
      .map((d) => d.fqdn)
      .sort();
  const accountIdOf = () => engine.mirror.listAccounts()[0]!.id;
  const listState = () =>
    engine.mirror.getSyncStates(accountIdOf()).find((s) => s.signal === 'domains' && s.domainId === null)!;

  it('a first sync stores the other domains and reports the entry it skipped', async () => {
    const { account } = await engine.app.addAccount({
      label: 'Acme',
      baseUrl: world.svc.baseUrl,
      token: world.token,
    });
    await engine.app.syncNow({ accountId: account.id });
    expect(listed()).toEqual(['first.example', 'third.example']);
    const state = listState();
    expect(state.lastSuccessAt).not.toBeNull();
    expect(state.consecutiveFailures).toBe(0);
    expect(state.lastError).toMatchObject({ code: 'skipped_entries' });
    expect(state.lastError!.message).toMatch(
      new RegExp(
        `^1 entry of the server's domain list could not be read and was skipped; the others synced — ` +
          `entry \\d \\(id ${world.domainIds['odd.example']}\\): fqdn: `,
      ),
    );
  });

  it('repaired, the entry syncs and the note goes; malformed again, the known domain is kept', async () => {
    corrupt = false;
    world.svc.clock.advance(6 * MIN);
    await engine.app.syncNow({ accountId: accountIdOf() });
    expect(listed()).toEqual(['first.example', 'odd.example', 'third.example']);
    expect(listState().lastError).toBeNull();

    corrupt = true;
    world.svc.clock.advance(6 * MIN);
    await engine.app.syncNow({ accountId: accountIdOf() });
    expect(listed()).toEqual(['first.example', 'odd.example', 'third.example']);
    expect(listState().lastError).toMatchObject({ code: 'skipped_entries' });
  });
});
