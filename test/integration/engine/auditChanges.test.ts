/**
 * The audit log's before → after: the app's own edits leave what they changed in the mirror (the change
 * journal), found by the request id the service's audit log keeps for the call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_V1_SCOPE_IDS } from '../../../service/auth/scopes.ts';
import {
  openEngine,
  publish,
  scan,
  startWorld,
  type EngineWorld,
  type TestEngine,
} from '../../support/engineWorld.ts';

const MIN = 60_000;

describe('audit log before → after, against the reference service', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  let accountId: number;

  beforeAll(async () => {
    world = await startWorld(['alpha.example']);
    engine = openEngine(world);
    // Every scope: the team's roles are read with the members' scope.
    const { token } = await world.svc.createToken([...ALL_V1_SCOPE_IDS]);
    accountId = (await engine.app.addAccount({ label: 'Acme', baseUrl: world.svc.baseUrl, token })).account
      .id;
    await engine.app.syncNow({ accountId });
  });
  afterAll(async () => {
    await engine?.close();
    await world?.close();
  });

  /** The service's audit entry of a request, as the audit page sends it to auditChanges. */
  async function entryOf(requestId: string) {
    const res = await world.svc.call('GET', '/audit-logs?limit=100', { token: world.token });
    const row = (
      res.body.data as {
        request_id: string;
        method: string;
        path: string;
        status_code: number;
        created_at: string;
      }[]
    ).find((r) => r.request_id === requestId);
    expect(row, `the audit log has the edit's request ${requestId}`).toBeDefined();
    return {
      requestId,
      method: row!.method,
      path: row!.path,
      statusCode: row!.status_code,
      at: row!.created_at,
    };
  }

  it('a DMARC policy change reads p: quarantine → reject; removing the record keeps its value', async () => {
    const domainId = world.domainIds['alpha.example']!;
    await engine.app.edit({ operation: 'createHostedDmarc', accountId, domainId, body: { p: 'quarantine' } });
    await world.svc.sandbox('PUT', '/delegations/alpha.example/dmarc', { delegated: true });
    world.svc.clock.advance(MIN);
    await scan(world.svc);
    world.svc.clock.advance(16 * MIN);
    await engine.app.syncNow({ accountId });

    const edit = await engine.app.edit({
      operation: 'updateDmarcPolicy',
      accountId,
      domainId,
      body: { policy: 'reject' },
    });
    const [found] = await engine.app.auditChanges({ accountId, entries: [await entryOf(edit.requestId!)] });
    expect(found).toMatchObject({ source: 'journal' });
    expect(found!.changes).toContainEqual({ field: 'p', before: 'quarantine', after: 'reject' });

    world.svc.clock.advance(MIN);
    await scan(world.svc);
    world.svc.clock.advance(16 * MIN);
    await engine.app.syncNow({ accountId });
    const removed = await engine.app.edit({ operation: 'deleteHostedDmarc', accountId, domainId });
    const [gone] = await engine.app.auditChanges({ accountId, entries: [await entryOf(removed.requestId!)] });
    const record = gone!.changes.find((c) => c.field === 'record');
    expect(record?.after).toBeNull();
    expect(record?.before).toMatch(/^v=DMARC1;.*p=reject/);
  });

  it('a member’s role change reads Viewer → Analyst, from the kept member and role lists', async () => {
    const roles = await engine.app.readPanel({ panel: 'roles', accountId });
    const byName = new Map((roles.data as { id: number; name: string }[]).map((r) => [r.name, r.id]));
    const invited = await engine.app.edit({
      operation: 'inviteUser',
      accountId,
      body: { email: 'vera@alpha.example', name: 'Vera', role_id: byName.get('Viewer')! },
    });
    const userId = (invited.data as { id: number }).id;
    await engine.app.readPanel({ panel: 'users', accountId, query: { limit: 100 }, mode: 'refresh' });

    const changed = await engine.app.edit({
      operation: 'setUserRole',
      accountId,
      params: { user_id: userId },
      body: { role_id: byName.get('Analyst')! },
    });
    const [found] = await engine.app.auditChanges({
      accountId,
      entries: [await entryOf(changed.requestId!)],
    });
    expect(found!.changes).toEqual([{ field: 'role', before: 'Viewer', after: 'Analyst' }]);
  });

  it('an entry the app did not make has no journal, and a read changes nothing', async () => {
    const res = await world.svc.call('PATCH', '/me', { token: world.token, body: { name: 'Someone' } });
    const requestId = res.headers.get('x-request-id')!;
    expect(await engine.app.auditChanges({ accountId, entries: [await entryOf(requestId)] })).toEqual([]);
  });

  it('a record removed by another client shows before → after once the mirror has seen both values', async () => {
    const domainId = world.domainIds['alpha.example']!;
    await engine.app.syncNow({ accountId });
    const at = world.svc.clock.now().toISOString();
    world.svc.clock.advance(MIN);
    await publish(world.svc, 'alpha.example', 'spf', null);
    await scan(world.svc);
    world.svc.clock.advance(16 * MIN);
    await engine.app.syncNow({ accountId });
    const [found] = await engine.app.auditChanges({
      accountId,
      entries: [
        {
          requestId: 'other-client',
          method: 'PATCH',
          path: `/api/v1/domains/${domainId}/hosted-spf`,
          statusCode: 200,
          at,
        },
      ],
    });
    expect(found).toMatchObject({ source: 'observed' });
    expect(found!.changes).toEqual([
      { field: 'record', before: 'v=spf1 ip4:192.0.2.0/24 -all', after: null },
    ]);
  });
});
