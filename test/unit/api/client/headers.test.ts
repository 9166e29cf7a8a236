import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../shared/api/client.ts';
import { fakeClock } from './fakeClock.ts';
import { json, startTestServer, type TestServer } from './testServer.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TOKEN = 'aw_live_HeaderTestToken_0123456789';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function api(baseUrl = `${server.origin}/api/v1`, token: () => Promise<string> = async () => TOKEN) {
  return createApiClient({ baseUrl, token, clock: fakeClock() });
}

describe('request headers', () => {
  it('sends Accept, the token from an async provider and a fresh UUID request id on a GET, without Content-Type', async () => {
    server.handle((_req, res) => json(res, 200, { data: { status: 'ok', version: 'v1' } }));
    const client = api();
    await client.get('/domains/{domain_id}/health', { params: { path: { domain_id: 7 } } });
    await client.get('/domains/{domain_id}/health', { params: { path: { domain_id: 7 } } });

    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(first?.method).toBe('GET');
    expect(first?.url).toBe('/api/v1/domains/7/health');
    expect(first?.headers.accept).toBe('application/json');
    expect(first?.headers['x-api-token']).toBe(TOKEN);
    expect(first?.headers['content-type']).toBeUndefined();
    expect(first?.headers['x-request-id']).toMatch(UUID);
    expect(second?.headers['x-request-id']).toMatch(UUID);
    expect(second?.headers['x-request-id']).not.toBe(first?.headers['x-request-id']);
  });

  it('sends Content-Type application/json and the JSON body with POST and PATCH', async () => {
    server.handle((_req, res) => json(res, 201, { data: { id: 3, name: 'Clients' } }));
    const client = api();
    const created = await client.post('/domain-groups', { body: { name: 'Clients' } });
    await client.patch('/domains/{domain_id}/mta-sts/mode', {
      params: { path: { domain_id: 9 } },
      body: { mode: 'testing' },
    });

    const [post, patch] = server.requests;
    expect(post?.method).toBe('POST');
    expect(post?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(post?.body ?? '')).toEqual({ name: 'Clients' });
    expect(patch?.method).toBe('PATCH');
    expect(patch?.url).toBe('/api/v1/domains/9/mta-sts/mode');
    expect(patch?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(patch?.body ?? '')).toEqual({ mode: 'testing' });
    expect(created.status).toBe(201);
  });

  it('sends no Content-Type on a DELETE without a body', async () => {
    server.handle((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const result = await api().delete('/domain-groups/{group_id}', { params: { path: { group_id: 4 } } });
    expect(server.requests[0]?.method).toBe('DELETE');
    expect(server.requests[0]?.headers['content-type']).toBeUndefined();
    expect(result.status).toBe(204);
    expect(result.data).toBeNull();
  });

  it("uses the caller's request id, given as an option or as the spec's header parameter", async () => {
    server.handle((req, res) => json(res, 200, { data: { echoed: req.headers['x-request-id'] } }));
    const client = api();
    const own = '3f0c2f4e-1b7a-4c8e-9d2a-5b6c7d8e9f01';
    const viaOption = await client.get('/health', { requestId: own });
    const other = 'a1b2c3d4-0000-4000-8000-000000000001';
    const viaHeader = await client.get('/domains/{domain_id}/health', {
      params: { path: { domain_id: 1 }, header: { 'X-Request-Id': other } },
    });
    expect(server.requests.map((r) => r.headers['x-request-id'])).toEqual([own, other]);
    expect(viaOption.requestId).toBe(own);
    expect(viaHeader.requestId).toBe(other);
  });

  it('sends no token header when no token is configured (public endpoints)', async () => {
    server.handle((_req, res) => json(res, 200, { data: { status: 'ok', version: 'v1' } }));
    const client = createApiClient({ baseUrl: server.origin, clock: fakeClock() });
    const result = await client.get('/health');
    expect(server.requests[0]?.headers['x-api-token']).toBeUndefined();
    expect(result.data).toEqual({ status: 'ok', version: 'v1' });
  });

  it('asks the provider for the token on every call, so a rotated keychain entry is used at once', async () => {
    server.handle((_req, res) => json(res, 200, { data: {} }));
    let current = 'aw_live_first_token_value';
    const client = createApiClient({ baseUrl: server.origin, token: () => current, clock: fakeClock() });
    await client.get('/health');
    current = 'aw_live_second_token_value';
    await client.get('/health');
    expect(server.requests.map((r) => r.headers['x-api-token'])).toEqual([
      'aw_live_first_token_value',
      'aw_live_second_token_value',
    ]);
  });

  it('serializes query parameters', async () => {
    server.handle((_req, res) =>
      json(res, 200, { data: [], pagination: { page: 2, limit: 5, total: 0, has_more: false } }),
    );
    await api().get('/domains', { params: { query: { page: 2, limit: 5 } } });
    expect(server.requests[0]?.url).toBe('/api/v1/domains?page=2&limit=5');
  });
});

describe('base URL forms reach the right path', () => {
  const forms: [string, string][] = [
    ['/api/v1', '/api/v1/health'],
    ['/api/v1/', '/api/v1/health'],
    ['/v1', '/v1/health'],
    ['/v1/', '/v1/health'],
    ['', '/api/v1/health'],
    ['/', '/api/v1/health'],
    ['/api', '/api/v1/health'],
    ['/api/v1/domains/12/health', '/api/v1/health'],
    ['/proxy/emailauth', '/proxy/emailauth/api/v1/health'],
  ];
  it.each(forms)('base URL origin + %j requests %s', async (suffix, expected) => {
    server.handle((_req, res) => json(res, 200, { data: { status: 'ok', version: 'v1' } }));
    const client = api(`  ${server.origin}${suffix}  `);
    const result = await client.get('/health');
    expect(server.requests[0]?.url).toBe(expected);
    expect(result.data).toEqual({ status: 'ok', version: 'v1' });
    expect(client.baseUrl).toBe(server.origin + expected.replace(/\/health$/, ''));
  });
});
