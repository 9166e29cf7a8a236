import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../../../shared/api/client.ts';
import { fakeClock } from './fakeClock.ts';
import { json, specError, startTestServer, type TestServer } from './testServer.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function client() {
  return createApiClient({ baseUrl: server.origin, token: 'aw_live_PaginateToken', clock: fakeClock([0]) });
}

function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url, 'http://x').searchParams);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const domain = (id: number) => ({ id, fqdn: `d${id}.example.com` });

describe('paginate', () => {
  it('walks 3 pages of 100 and stops on has_more false', async () => {
    const total = 250;
    server.handle((req, res) => {
      const { page, limit } = queryOf(req.url);
      const p = Number(page);
      const l = Number(limit);
      const ids = Array.from(
        { length: Math.max(0, Math.min(l, total - (p - 1) * l)) },
        (_, i) => (p - 1) * l + i + 1,
      );
      json(res, 200, {
        data: ids.map(domain),
        pagination: { page: p, limit: l, total, has_more: p * l < total },
      });
    });
    const items = await collect(client().paginate('/domains'));
    expect(items).toHaveLength(250);
    expect(items.map((d) => d.id)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(server.requests.map((r) => queryOf(r.url))).toEqual([
      { page: '1', limit: '100' },
      { page: '2', limit: '100' },
      { page: '3', limit: '100' },
    ]);
  });

  it('keeps the caller’s filters and path params on every page', async () => {
    let page = 0;
    server.handle((_req, res) => {
      page += 1;
      json(res, 200, {
        data: [{ id: page, action: 'domain.update' }],
        pagination: { page, limit: 1, total: 2, has_more: page < 2 },
      });
    });
    const items = await collect(
      client().paginate(
        '/audit-logs',
        { params: { query: { status_class: '4xx', q: 'spf' } } },
        { limit: 1 },
      ),
    );
    expect(items).toHaveLength(2);
    for (const req of server.requests)
      expect(queryOf(req.url)).toMatchObject({ status_class: '4xx', q: 'spf', limit: '1' });
  });

  it('sends the caller’s request id with the first page and fresh ids with the others', async () => {
    server.handle((req, res) => {
      const p = Number(queryOf(req.url).page);
      json(res, 200, { data: [domain(p)], pagination: { page: p, limit: 100, total: 3, has_more: p < 3 } });
    });
    const own = '0b9d7a4e-2c1f-4e3a-8b5d-6f7e8d9c0a1b';
    await collect(client().paginate('/domains', { requestId: own }));
    const ids = server.requests.map((r) => String(r.headers['x-request-id']));
    expect(ids[0]).toBe(own);
    expect(new Set(ids).size).toBe(3);
  });

  it('terminates when a lying server always says has_more: true but sends an empty page', async () => {
    let calls = 0;
    server.handle((_req, res) => {
      calls += 1;
      const data = calls <= 2 ? [domain(calls)] : [];
      json(res, 200, { data, pagination: { page: calls, limit: 100, total: 9999, has_more: true } });
    });
    const items = await collect(client().paginate('/domains'));
    expect(items.map((d) => d.id)).toEqual([1, 2]);
    expect(server.requests).toHaveLength(3);
  });

  it('terminates once total items were seen even if has_more stays true', async () => {
    server.handle((req, res) => {
      const p = Number(queryOf(req.url).page);
      json(res, 200, { data: [domain(p)], pagination: { page: p, limit: 100, total: 2, has_more: true } });
    });
    expect(await collect(client().paginate('/domains'))).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('throws malformed_response after maxPages when a server never ends the list', async () => {
    server.handle((req, res) => {
      const p = Number(queryOf(req.url).page);
      json(res, 200, { data: [domain(p)], pagination: { page: p, limit: 100, has_more: true } });
    });
    const seen: number[] = [];
    let caught: unknown;
    try {
      for await (const d of client().paginate('/domains', {}, { maxPages: 5 })) seen.push(d.id);
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(caught).toBeInstanceOf(ApiError);
    expect(caught).toMatchObject({ code: 'malformed_response' });
  });

  it('refuses an answer for another page than the one asked for (Prism answers page 43839178 to page 1)', async () => {
    server.handle((_req, res) => {
      json(res, 200, {
        data: [domain(1), domain(2)],
        pagination: { page: 43839178, limit: 69, total: 19081896, has_more: true },
      });
    });
    await expect(collect(client().paginate('/domains'))).rejects.toMatchObject({
      code: 'malformed_response',
      message: expect.stringContaining('page 43839178 when page 1 was asked for'),
    });
    expect(server.requests).toHaveLength(1);
  });

  it('reads a single page when the server sends no pagination object', async () => {
    server.handle((_req, res) => json(res, 200, { data: [domain(1), domain(2)] }));
    expect(await collect(client().paginate('/domains'))).toHaveLength(2);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects with malformed_response when data is not an array', async () => {
    server.handle((_req, res) =>
      json(res, 200, { data: { id: 1 }, pagination: { page: 1, limit: 100, total: 1, has_more: false } }),
    );
    await expect(collect(client().paginate('/domains'))).rejects.toMatchObject({
      code: 'malformed_response',
      status: 200,
    });
  });

  it('passes an error of a later page through as the ApiError it is', async () => {
    server.handle((req, res) => {
      const p = Number(queryOf(req.url).page);
      if (p === 2) return specError(req, res, 401, 'invalid_api_token', 'Token revoked.');
      json(res, 200, { data: [domain(1)], pagination: { page: 1, limit: 100, total: 2, has_more: true } });
    });
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const d of client().paginate('/domains')) seen.push(d.id);
      })(),
    ).rejects.toMatchObject({ code: 'invalid_api_token', status: 401 });
    expect(seen).toEqual([1]);
  });
});
