// The audit log over real HTTP: what is recorded, with which request_id and label, every filter of
// GET /audit-logs, newest-first order, and team isolation.
import type { components } from '../../../shared/api/types.gen.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { documentRuntime } from '../../../service/openapi/documentRuntime.ts';
import { actionLabel } from '../../../service/audit/actionLabel.ts';

let svc: ServiceHarness;
let auditor: { id: number; token: string };
const ids = {
  renamed: 'aaaaaaaa-0000-4000-8000-000000000001',
  badName: 'aaaaaaaa-0000-4000-8000-000000000002',
  created: 'aaaaaaaa-0000-4000-8000-000000000003',
  security: 'aaaaaaaa-0000-4000-8000-000000000004',
  plainRead: 'aaaaaaaa-0000-4000-8000-000000000005',
  anonymous: 'aaaaaaaa-0000-4000-8000-000000000006',
  altBase: 'aaaaaaaa-0000-4000-8000-000000000007',
};

type Entry = components['schemas']['AuditLog'];

async function list(query: Record<string, string | number> = {}): Promise<Entry[]> {
  const res = await svc.call('GET', '/audit-logs', { token: auditor.token, query: { limit: 100, ...query } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Entry[];
}

const rid = (entries: Entry[]) => entries.map((e) => e.request_id);

beforeAll(async () => {
  svc = await startService();
  auditor = await svc.createToken(['account:read', 'me:read', 'me:write', 'tokens:read', 'tokens:write'], {
    name: 'auditor',
  });
  const h = (id: string) => ({ 'x-request-id': id });
  svc.clock.set('2026-06-10T09:00:00.000Z');
  await svc.call('PATCH', '/me', {
    token: auditor.token,
    body: { name: 'Olivia O.' },
    headers: h(ids.renamed),
  });
  svc.clock.advance(60_000);
  await svc.call('PATCH', '/me', { token: auditor.token, body: { name: '' }, headers: h(ids.badName) });
  svc.clock.set('2026-06-12T10:00:00.000Z');
  await svc.call('POST', '/auth/tokens', {
    token: auditor.token,
    body: { name: 'made', scopes: ['me:read'] },
    headers: h(ids.created),
  });
  svc.clock.advance(60_000);
  await svc.call('GET', '/me/security', { token: auditor.token, headers: h(ids.security) });
  await svc.call('GET', '/me', { token: auditor.token, headers: h(ids.plainRead) });
  await svc.call('PATCH', '/me', { body: { name: 'nobody' }, headers: h(ids.anonymous) });
  svc.clock.advance(60_000);
  await svc.call('PATCH', '/me', {
    token: auditor.token,
    body: { language: 'fr' },
    base: 'alt',
    headers: h(ids.altBase),
  });
  svc.clock.set('2026-06-14T12:00:00.000Z');
});

afterAll(() => stopService(svc));

describe('what is recorded', () => {
  it('records mutating calls (success and failure) and sensitive reads, newest first', async () => {
    const entries = (await list()).filter((e) => Object.values(ids).includes(e.request_id));
    expect(rid(entries)).toEqual([ids.altBase, ids.security, ids.created, ids.badName, ids.renamed]);
    const times = entries.map((e) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('does not record plain reads or calls without a valid token', async () => {
    const all = rid(await list());
    expect(all).not.toContain(ids.plainRead);
    expect(all).not.toContain(ids.anonymous);
  });

  it('stores who, what, where and the request_id the response carried', async () => {
    const [entry] = (await list()).filter((e) => e.request_id === ids.renamed);
    expect(entry).toMatchObject({
      action: 'me.update',
      method: 'PATCH',
      path: '/api/v1/me',
      status_code: 200,
      ip_address: '127.0.0.1',
      token_id: auditor.id,
      token_name: 'auditor',
      user_id: svc.seed!.ownerUserId,
      team_id: svc.seed!.teamId,
      created_at: '2026-06-10T09:00:00.000Z',
    });
    const created = (await list()).find((e) => e.request_id === ids.created)!;
    expect(created).toMatchObject({
      action: 'auth.token.create',
      status_code: 201,
      path: '/api/v1/auth/tokens',
    });
    const alt = (await list()).find((e) => e.request_id === ids.altBase)!;
    expect(alt.path).toBe('/v1/me');
  });

  it('records a generated request id when the caller sent none', async () => {
    const res = await svc.call('DELETE', '/auth/tokens/999999', { token: auditor.token });
    expect(res.status).toBe(404);
    const entry = (await list({ status_code: 404 }))[0]!;
    expect(entry.request_id).toBe(res.headers.get('x-request-id'));
    expect(entry.request_id).toBe(res.body.error.request_id);
    expect(entry.action).toBe('auth.token.revoke');
  });

  it('GET /audit-logs/{log_id} returns one entry', async () => {
    const entry = (await list()).find((e) => e.request_id === ids.badName)!;
    const res = await svc.call('GET', `/audit-logs/${entry.id}`, { token: auditor.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(entry);
    expect(entry.status_code).toBe(422);
  });
});

describe('filters', () => {
  it('method', async () => {
    const patches = await list({ method: 'PATCH' });
    expect(patches.length).toBeGreaterThanOrEqual(3);
    expect(patches.every((e) => e.method === 'PATCH')).toBe(true);
  });

  it('action (exact)', async () => {
    expect(rid(await list({ action: 'me.update' }))).toEqual([ids.altBase, ids.badName, ids.renamed]);
    expect(await list({ action: 'me.upd' })).toEqual([]);
  });

  it('path (substring)', async () => {
    const tokens = await list({ path: 'auth/tok' });
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.every((e) => e.path.includes('auth/tok'))).toBe(true);
    expect(rid(await list({ path: '/v1/me' }))).toEqual(expect.arrayContaining([ids.altBase, ids.renamed]));
    expect(await list({ path: '%' })).toEqual([]); // a LIKE wildcard matches literally
  });

  it('status_code and status_class', async () => {
    expect(rid(await list({ status_code: 422 }))).toEqual([ids.badName]);
    const fours = await list({ status_class: '4xx' });
    expect(fours.every((e) => e.status_code >= 400 && e.status_code < 500)).toBe(true);
    expect(rid(fours)).toContain(ids.badName);
    const twos = await list({ status_class: '2xx' });
    expect(rid(twos)).toEqual(expect.arrayContaining([ids.renamed, ids.created, ids.security]));
    expect(rid(twos)).not.toContain(ids.badName);
    expect(await list({ status_class: '5xx' })).toEqual([]);
  });

  it('ip_address (exact) and token_id', async () => {
    expect((await list({ ip_address: '127.0.0.1' })).length).toBeGreaterThan(4);
    expect(await list({ ip_address: '127.0.0' })).toEqual([]);
    expect((await list({ token_id: auditor.id })).every((e) => e.token_id === auditor.id)).toBe(true);
    expect(await list({ token_id: auditor.id + 1000 })).toEqual([]);
  });

  it('q searches action, path and IP', async () => {
    expect(rid(await list({ q: 'security' }))).toContain(ids.security); // path /me/security, action me.security.read
    expect(rid(await list({ q: 'token.create' }))).toEqual([ids.created]); // action
    expect((await list({ q: '127.0.0' })).length).toBeGreaterThan(4); // IP
    expect(await list({ q: 'no-such-text' })).toEqual([]);
  });

  it('start_date and end_date (inclusive days)', async () => {
    expect(rid(await list({ start_date: '2026-06-10', end_date: '2026-06-10' }))).toEqual([
      ids.badName,
      ids.renamed,
    ]);
    const from12 = rid(await list({ start_date: '2026-06-12', end_date: '2026-06-12' }));
    expect(from12).toEqual([ids.altBase, ids.security, ids.created]);
    expect(rid(await list({ end_date: '2026-06-11' }))).toEqual([ids.badName, ids.renamed]);
    const bad = await svc.call('GET', '/audit-logs', {
      token: auditor.token,
      query: { start_date: '2026-06-12', end_date: '2026-06-10' },
    });
    expect(bad.status).toBe(422);
    const notADate = await svc.call('GET', '/audit-logs', {
      token: auditor.token,
      query: { start_date: '12/06/2026' },
    });
    expect(notADate.status).toBe(422);
    expect(notADate.body.error.details[0].field).toBe('query.start_date');
  });

  it('combines filters and paginates', async () => {
    const res = await svc.call('GET', '/audit-logs', {
      token: auditor.token,
      query: { method: 'PATCH', status_class: '2xx', limit: 1 },
    });
    expect(res.body.data.map((e: Entry) => e.request_id)).toEqual([ids.altBase]);
    expect(res.body.pagination).toMatchObject({ page: 1, limit: 1, total: 2, has_more: true });
  });
});

describe('team isolation', () => {
  it('hides another team’s entries: absent from the list, 404 by id', async () => {
    const acct = await svc.sandbox('POST', '/accounts', { name: 'Rival', plan: 'suite' });
    const rival = await svc.createToken(['me:write', 'account:read'], {
      userId: acct.body.data.owner_user_id,
    });
    const theirs = 'bbbbbbbb-0000-4000-8000-000000000001';
    await svc.call('PATCH', '/me', {
      token: rival.token,
      body: { name: 'Rival' },
      headers: { 'x-request-id': theirs },
    });
    const theirList = await svc.call('GET', '/audit-logs', { token: rival.token });
    const entry = theirList.body.data.find((e: Entry) => e.request_id === theirs) as Entry;
    expect(entry.team_id).toBe(acct.body.data.team_id);

    expect(rid(await list())).not.toContain(theirs);
    const res = await svc.call('GET', `/audit-logs/${entry.id}`, { token: auditor.token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect((await svc.call('GET', '/audit-logs/987654', { token: auditor.token })).status).toBe(404);
  });
});

describe('action labels', () => {
  it('give every operation a dotted label, distinct per operation', () => {
    const labels = documentRuntime().operations.map((op) => [op.operationId, actionLabel(op)] as const);
    for (const [id, label] of labels) expect(label, id).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/);
    const seen = new Map<string, string>();
    for (const [id, label] of labels) {
      expect(seen.get(label), `${id} and ${seen.get(label)} share ${label}`).toBeUndefined();
      seen.set(label, id);
    }
  });

  it('follow the rule on representative operations', () => {
    const byId = documentRuntime().byId;
    const label = (id: string) => actionLabel(byId.get(id)!);
    expect(label('updateHostedSpf')).toBe('domain.hosted_spf.update');
    expect(label('createDomain')).toBe('domain.create');
    expect(label('listDomains')).toBe('domain.list');
    expect(label('getDomain')).toBe('domain.read');
    expect(label('deleteSpfInclude')).toBe('domain.spf.include.delete');
    expect(label('resetMtaSts')).toBe('domain.mta_sts.reset');
    expect(label('checkDomainDns')).toBe('domain.check_dns');
    expect(label('setUserEnforce2fa')).toBe('user.enforce_2fa.update');
    expect(label('revokeToken')).toBe('auth.token.revoke');
    expect(label('getBimiVmc')).toBe('domain.bimi.vmc.read');
    expect(label('removeDomainFromGroup')).toBe('domain_group.domain.remove');
  });
});
