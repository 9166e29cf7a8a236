import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

// readPanel: the domain page's on-demand panels and the audit log, live when the service answers and from
// the mirror (with their age and the reason) when it does not.
let world: EngineWorld;
let engine: TestEngine;
let accountId: number;
let domainId: number;
/** In front of the real service: the answers of paths ending so are changed (null: none is). */
let garble: { path: string; data: (real: Record<string, unknown>) => unknown } | null = null;

const garbling: FetchLike = async (request) => {
  const response = await fetch(request);
  if (!garble || !new URL(request.url).pathname.endsWith(garble.path)) return response;
  const body = (await response.json()) as { data: Record<string, unknown> };
  return new Response(JSON.stringify({ ...body, data: garble.data(body.data) }), {
    status: response.status,
    headers: { 'content-type': 'application/json' },
  });
};

beforeAll(async () => {
  world = await startWorld(['panels.example']);
  engine = openEngine(world, { fetch: garbling });
  const added = await engine.app.addAccount({
    label: 'Panels',
    baseUrl: world.svc.baseUrl,
    token: world.token,
  });
  accountId = added.account.id;
  await engine.app.syncNow({ accountId });
  domainId = world.domainIds['panels.example']!;
});

afterAll(async () => {
  await engine?.close();
  await world?.close();
});

describe('readPanel', () => {
  it('fetches a panel live, keeps it, and answers later reads from the mirror while it is fresh', async () => {
    const live = await engine.app.readPanel({ panel: 'bimi_readiness', accountId, domainId });
    expect(live.source).toBe('live');
    expect(live.error).toBeNull();
    expect(live.data).toMatchObject({ domain_id: domainId });
    expect(live.fetchedAt).not.toBeNull();
    const again = await engine.app.readPanel({ panel: 'bimi_readiness', accountId, domainId });
    expect(again).toMatchObject({ source: 'cache', data: live.data, fetchedAt: live.fetchedAt });
  });

  it('asks again after an edit of the account: a copy kept before it shows the state the edit changed', async () => {
    const first = await engine.app.readPanel({ panel: 'domain_groups', accountId });
    expect(first.source).toBe('live');
    expect((await engine.app.readPanel({ panel: 'domain_groups', accountId })).source).toBe('cache');
    await engine.app.edit({
      operation: 'createDomainGroup',
      accountId,
      body: { name: 'Made after the read' },
    });
    const after = await engine.app.readPanel({ panel: 'domain_groups', accountId });
    expect(after.source).toBe('live');
    expect((after.data as { name: string }[]).map((g) => g.name)).toContain('Made after the read');
    expect((await engine.app.readPanel({ panel: 'domain_groups', accountId })).source).toBe('cache');
  });

  it('passes only the query parameters a panel allows, and pages lists', async () => {
    const page = await engine.app.readPanel({
      panel: 'audit_logs',
      accountId,
      query: { method: 'POST', limit: 2 },
    });
    expect(page.source).toBe('live');
    expect(Array.isArray(page.data)).toBe(true);
    expect((page.data as { method: string }[]).every((row) => row.method === 'POST')).toBe(true);
    expect(page.pagination).toMatchObject({ page: 1, limit: 2 });
    await expect(
      engine.app.readPanel({ panel: 'audit_logs', accountId, query: { token: 'x' } }),
    ).rejects.toMatchObject({ code: 'invalid_arguments' });
    await expect(engine.app.readPanel({ panel: 'bimi_readiness', accountId })).rejects.toMatchObject({
      code: 'invalid_arguments',
    });
  });

  it('asks the read-style POSTs (the DMARC recommendation) with their parameters in the body', async () => {
    const recommendation = await engine.app.readPanel({
      panel: 'dmarc_recommendation',
      accountId,
      domainId,
      query: { monitoring_days: 30 },
    });
    expect(recommendation.error).toBeNull();
    expect(recommendation.data).toMatchObject({ domain_id: domainId, current_policy: 'reject' });
    const bad = await engine.app.readPanel({
      panel: 'dmarc_recommendation',
      accountId,
      domainId,
      query: { monitoring_days: 1 },
      mode: 'refresh',
    });
    expect(bad.error).toMatchObject({ status: 422 });
  });

  it('asks a panel once when several screens ask it at the same time (one recommendation POST, not four)', async () => {
    const recommendations = async () => {
      const res = await world.svc.call('GET', '/audit-logs', {
        token: world.token,
        query: { path: `/domains/${domainId}/dmarc/recommendation`, limit: 100 },
      });
      return (res.body.data as { method: string }[]).filter((r) => r.method === 'POST').length;
    };
    const before = await recommendations();
    const asks = await Promise.all(
      [1, 2, 3, 4].map(() =>
        engine.app.readPanel({ panel: 'dmarc_recommendation', accountId, domainId, mode: 'refresh' }),
      ),
    );
    expect(asks.map((a) => a.source)).toEqual(['live', 'live', 'live', 'live']);
    expect(new Set(asks.map((a) => a.fetchedAt)).size).toBe(1);
    expect(await recommendations()).toBe(before + 1);
  });

  it('keeps no token in the mirror, its WAL or an export, whatever panels were read', async () => {
    for (const panel of ['auth_me', 'audit_logs', 'me', 'scopes'] as const)
      expect((await engine.app.readPanel({ panel, accountId, mode: 'refresh' })).error).toBeNull();
    const exports = await Promise.all(
      (['overview', 'alerts'] as const).flatMap((what) =>
        (['csv', 'json'] as const).map((format) => engine.app.exportData({ what, format })),
      ),
    );
    const files = readdirSync(world.dir).map((name) => readFileSync(join(world.dir, name)));
    expect(files.length).toBeGreaterThan(0);
    const secret = world.token.slice(4);
    for (const bytes of files) expect(bytes.includes(secret)).toBe(false);
    for (const file of exports) expect(file.content).not.toContain(secret);
  });

  it('refuses a live answer the interface does not allow, and keeps showing the copy it had', async () => {
    const kept = await engine.app.readPanel({
      panel: 'bimi_readiness',
      accountId,
      domainId,
      mode: 'refresh',
    });
    expect(kept.error).toBeNull();
    try {
      garble = { path: '/bimi/readiness', data: (real) => ({ ...real, score: 'high' }) };
      const bounds = await engine.app.readPanel({
        panel: 'bimi_readiness',
        accountId,
        domainId,
        mode: 'refresh',
      });
      expect(bounds).toMatchObject({ source: 'cache', data: kept.data, fetchedAt: kept.fetchedAt });
      expect(bounds.error).toMatchObject({
        code: 'malformed_response',
        message: expect.stringMatching(/score/),
      });
      garble = { path: '/domain-groups', data: () => ({ groups: [] }) };
      const shape = await engine.app.readPanel({ panel: 'domain_groups', accountId, mode: 'refresh' });
      expect(shape.error?.code).toBe('malformed_response');
      expect(Array.isArray(shape.data)).toBe(true);
    } finally {
      garble = null;
    }
    const again = await engine.app.readPanel({ panel: 'bimi_readiness', accountId, domainId, mode: 'cache' });
    expect(again.data).toEqual(kept.data);
  });

  it('with the service gone, answers with the kept copy, its age and why the live read failed', async () => {
    const kept = await engine.app.readPanel({ panel: 'bimi_readiness', accountId, domainId, mode: 'cache' });
    await world.svc.close();
    const offline = await engine.app.readPanel({
      panel: 'bimi_readiness',
      accountId,
      domainId,
      mode: 'refresh',
    });
    expect(offline.source).toBe('cache');
    expect(offline.data).toEqual(kept.data);
    expect(offline.fetchedAt).toBe(kept.fetchedAt);
    expect(offline.error?.code).toMatch(/network_error|timeout/);
    const never = await engine.app.readPanel({
      panel: 'tls_rpt_reports',
      accountId,
      domainId,
      mode: 'refresh',
    });
    expect(never).toMatchObject({ source: 'cache', data: null, fetchedAt: null });
    expect(never.error).not.toBeNull();
    const [state] = await engine.app.connectivity();
    expect(state).toMatchObject({ accountId, online: false });
  });
});
