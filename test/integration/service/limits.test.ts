// Rate limits and page bounds over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { documentRuntime } from '../../../service/openapi/documentRuntime.ts';

describe('per-token rate limit', () => {
  let svc: ServiceHarness;
  beforeAll(async () => {
    svc = await startService({ rateLimitPerMinute: 5 });
  });
  afterAll(async () => {
    svc.expectNoContractViolations();
    await svc.close();
  });

  it('counts down X-RateLimit-Remaining, refuses the 6th call with 429 + Retry-After, recovers next minute', async () => {
    const a = (await svc.createToken(['me:read'])).token;
    const b = (await svc.createToken(['me:read'])).token;
    const resetAt = String(Math.ceil(svc.clock.now().getTime() / 60_000) * 60 + 60);
    for (let i = 4; i >= 0; i--) {
      const res = await svc.call('GET', '/me', { token: a });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(i));
      expect(res.headers.get('x-ratelimit-reset')).toBe(resetAt);
    }
    svc.clock.advance(15_000);
    const refused = await svc.call('GET', '/me', { token: a });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('http_error');
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

    // Another token of the same user has its own budget.
    expect((await svc.call('GET', '/me', { token: b })).status).toBe(200);

    svc.clock.advance(45_000);
    const again = await svc.call('GET', '/me', { token: a });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('limits before checking the scope, and a refused call is not counted', async () => {
    const t = (await svc.createToken(['me:read'])).token;
    for (let i = 0; i < 5; i++) expect((await svc.call('GET', '/me', { token: t })).status).toBe(200);
    const noScope = await svc.call('GET', '/audit-logs', { token: t });
    expect(noScope.status).toBe(429);
    svc.clock.advance(60_000);
    const fresh = await svc.call('GET', '/audit-logs', { token: t });
    expect(fresh.status).toBe(403);
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('reports rate-limit headers on 401s and unknown routes too', async () => {
    const unauth = await svc.call('GET', '/me');
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    const unknown = await fetch(`${svc.baseUrl}/no-such-thing`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });
});

describe('defaults', () => {
  it('allows 60 requests per minute per token by default', async () => {
    const svc = await startService({ rateLimitPerMinute: null });
    try {
      const t = (await svc.createToken(['me:read'])).token;
      const first = await svc.call('GET', '/me', { token: t });
      expect(first.headers.get('x-ratelimit-limit')).toBe('60');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
      for (let i = 0; i < 59; i++) await svc.call('GET', '/me', { token: t });
      expect((await svc.call('GET', '/me', { token: t })).status).toBe(429);
      svc.expectNoContractViolations();
    } finally {
      await svc.close();
    }
  });

  it('limits public operations per client IP', async () => {
    const svc = await startService({ publicRateLimitPerMinute: 3 });
    try {
      // Raw fetch: the document lists no 429 for the public operations (reported to the document's owner).
      for (let i = 0; i < 3; i++) expect((await fetch(`${svc.baseUrl}/health`)).status).toBe(200);
      const refused = await fetch(`${svc.baseUrl}/auth/scopes`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect((await refused.json()).error.code).toBe('http_error');
      // A token's budget is separate from the IP's.
      const t = (await svc.createToken(['me:read'])).token;
      expect((await fetch(`${svc.baseUrl}/me`, { headers: { 'x-api-token': t } })).status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

describe('page and limit', () => {
  let svc: ServiceHarness;
  let token: string;
  beforeAll(async () => {
    svc = await startService();
    token = (await svc.createToken(['tokens:read', 'me:read', 'account:read'])).token;
  });
  afterAll(async () => {
    svc.expectNoContractViolations();
    await svc.close();
  });

  it('rejects limit 0 and 101 and page 0 with 422 naming the query field', async () => {
    for (const [query, field] of [
      [{ limit: 0 }, 'query.limit'],
      [{ limit: 101 }, 'query.limit'],
      [{ page: 0 }, 'query.page'],
      [{ limit: 'ten' }, 'query.limit'],
    ] as const) {
      for (const path of ['/auth/tokens', '/me/domains', '/audit-logs']) {
        const res = await svc.call('GET', path, { token, query });
        expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(422);
        expect(res.body.error.code).toBe('validation_error');
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
      }
    }
  });

  it('accepts the bounds 1 and 100 and defaults to page 1, limit 25', async () => {
    for (const limit of [1, 100]) {
      const res = await svc.call('GET', '/auth/tokens', { token, query: { limit } });
      expect(res.status).toBe(200);
      expect(res.body.pagination.limit).toBe(limit);
    }
    const res = await svc.call('GET', '/auth/tokens', { token });
    expect(res.body.pagination).toMatchObject({ page: 1, limit: 25 });
  });

  it('pages through a list with has_more', async () => {
    for (let i = 0; i < 4; i++) await svc.createToken(['me:read'], { name: `extra ${i}` });
    const total = (await svc.call('GET', '/auth/tokens', { token })).body.pagination.total as number;
    expect(total).toBeGreaterThanOrEqual(5);
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const res = await svc.call('GET', '/auth/tokens', { token, query: { page, limit: 2 } });
      seen.push(...res.body.data.map((t: { id: number }) => t.id));
      expect(res.body.pagination.has_more).toBe(page * 2 < total);
      if (!res.body.pagination.has_more) break;
    }
    expect(new Set(seen).size).toBe(total);
  });

  it('gives limit-only lists a default limit of 10 from the document', () => {
    const runtime = documentRuntime();
    const op = runtime.byId.get('getDnsSnapshots')!;
    const query: Record<string, unknown> = {};
    expect(runtime.validatorsOf(op).query(query)).toEqual([]);
    expect(query.limit).toBe(10);
    expect(query.page).toBeUndefined();
  });
});
