// The service's common behaviour over real HTTP: both base paths, envelopes, request ids, unknown routes,
// malformed bodies, unexpected errors, unimplemented operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';

let svc: ServiceHarness;
let token: string;

beforeAll(async () => {
  svc = await startService({
    handlers: {
      // A test-only fault: the real handler of GET /health cannot fail.
      getHealth: (req) => {
        if (req.query.boom === 'yes') throw new Error('database exploded at /secret/path');
        return { data: { status: 'ok', version: 'v1' } };
      },
    },
  });
  token = (await svc.createToken(['account:read', 'me:read', 'me:write', 'tokens:read', 'tokens:write']))
    .token;
});

afterAll(() => stopService(svc));

describe('base paths', () => {
  it('serves every operation under /api/v1 and /v1 alike', async () => {
    for (const base of ['primary', 'alt'] as const) {
      const health = await svc.call('GET', '/health', { base });
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ data: { status: 'ok', version: 'v1' } });
      const me = await svc.call('GET', '/me', { token, base });
      expect(me.status).toBe(200);
      expect(me.body.data.email).toBe('olivia.owner@acme.example');
    }
    expect(svc.altBaseUrl).toMatch(/\/v1$/);
    expect(svc.baseUrl).toMatch(/\/api\/v1$/);
  });

  it('lists the v1 and legacy scopes publicly', async () => {
    const res = await svc.call('GET', '/auth/scopes');
    expect(res.status).toBe(200);
    const v1 = res.body.data.v1.map((s: { id: string }) => s.id);
    expect(v1).toEqual([
      'account:read',
      'me:read',
      'me:write',
      'users:read',
      'users:write',
      'tokens:read',
      'tokens:write',
      'domains:read',
      'domains:write',
    ]);
    expect(res.body.data.legacy.map((s: { id: string }) => s.id)).toEqual([
      'email-trust:read',
      'reports:read',
      'integrations:read',
      'integrations:write',
    ]);
    expect(res.body.data.legacy.every((s: { group: string }) => s.group === 'legacy')).toBe(true);
  });
});

describe('request ids', () => {
  it('echoes a UUID X-Request-Id in the header and the error envelope', async () => {
    const id = '0b6f1a52-7d8e-4c1b-9a3e-5f2d6c7b8a90';
    const res = await svc.call('GET', '/me', { headers: { 'x-request-id': id } });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(res.body.error.request_id).toBe(id);
  });

  it('replaces a missing or non-UUID X-Request-Id with a fresh UUID', async () => {
    const a = await svc.call('GET', '/me', { headers: { 'x-request-id': 'not-a-uuid; drop table' } });
    const b = await svc.call('GET', '/me');
    for (const res of [a, b]) {
      expect(res.body.error.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('x-request-id')).toBe(res.body.error.request_id);
    }
    expect(a.body.error.request_id).not.toBe(b.body.error.request_id);
    const ok = await svc.call('GET', '/health');
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('errors outside the operations', () => {
  it('answers an unknown route with the 404 not_found envelope on any base', async () => {
    for (const path of ['/api/v1/nothing-here', '/v1/domains/1/nope', '/elsewhere']) {
      const res = await fetch(svc.origin + path);
      const body = await res.json();
      expect(res.status).toBe(404);
      expect(body.error.code).toBe('not_found');
      expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
    }
  });

  it('answers a malformed JSON body with 422 validation_error on field body, after authentication', async () => {
    const bad = await svc.call('POST', '/auth/tokens', { token, rawBody: '{"name": "x", "scopes": [' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_error');
    expect(bad.body.error.details).toEqual([{ field: 'body', message: 'is not valid JSON' }]);
    const anonymous = await svc.call('POST', '/auth/tokens', { rawBody: '{oops' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('missing_api_token');
  });

  it('answers a body of another content type with 422 validation_error', async () => {
    const res = await svc.call('PATCH', '/me', {
      token,
      rawBody: 'name=Eve',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0]).toEqual({ field: 'body', message: 'must be sent as application/json' });
  });

  it('answers an unexpected exception with 500 internal_error and no internals', async () => {
    const res = await svc.call('GET', '/health', { query: { boom: 'yes' } });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('internal_error');
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('exploded');
    expect(text).not.toContain('/secret/path');
    expect(text).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('operations without a handler', () => {
  it('answer 501 not_implemented after the usual checks', async () => {
    const bare = await startService({ baseHandlers: {} });
    try {
      const t = (await bare.createToken(['domains:read'])).token;
      const res = await fetch(`${bare.baseUrl}/domains`, { headers: { 'x-api-token': t } });
      const body = await res.json();
      expect(res.status).toBe(501);
      expect(body.error.code).toBe('not_implemented');
      expect(body.error.message).toContain('listDomains');
      const anonymous = await fetch(`${bare.baseUrl}/domains`);
      expect(anonymous.status).toBe(401);
    } finally {
      await bare.close();
    }
  });
});
