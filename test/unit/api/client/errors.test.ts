import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, validationIssues } from '../../../../shared/api/client.ts';
import { fakeClock } from './fakeClock.ts';
import { json, raw, specError, startTestServer, type TestServer } from './testServer.ts';
import { rejection } from '../../../support/rejection.ts';

const TOKEN = 'aw_live_ErrorsTestToken_abcdef';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function client(maxAttempts = 1) {
  return createApiClient({
    baseUrl: server.origin,
    token: TOKEN,
    clock: fakeClock(),
    retry: { maxAttempts },
  });
}

/** The ApiError a call rejects with (fails the test if it resolves or throws anything else). */
const failure = (call: Promise<unknown>) => rejection(call, ApiError);

const getHealth = (c = client()) =>
  c.get('/domains/{domain_id}/health', { params: { path: { domain_id: 5 } } });
const postGroup = (c = client()) => c.post('/domain-groups', { body: { name: 'x' } });

describe("the spec's error table", () => {
  const table: [number, string, boolean][] = [
    [401, 'missing_api_token', false],
    [401, 'invalid_api_token', false],
    [403, 'api_access_disabled', false],
    [403, 'api_plan_not_eligible', false],
    [403, 'insufficient_scope', false],
    [404, 'not_found', false],
    [429, 'http_error', true],
    [500, 'internal_error', false],
    [503, 'score_unavailable', true],
  ];
  it.each(table)(
    'HTTP %i %s on a GET → ApiError with that code, the echoed request id, retryable %s',
    async (status, code, retryable) => {
      server.handle((req, res) => specError(req, res, status, code, `Server says ${code}.`));
      const error = await failure(getHealth());
      const sentId = server.requests[0]?.headers['x-request-id'];
      expect(error).toMatchObject({
        status,
        code,
        message: `Server says ${code}.`,
        retryable,
        requestId: sentId,
      });
      expect(error.method).toBe('GET');
      expect(error.path).toBe('/api/v1/domains/5/health');
      expect(error.details).toBeUndefined();
    },
  );

  it('422 validation_error carries the per-field details', async () => {
    const details = [{ field: 'body.name', message: 'must not be empty' }];
    server.handle((req, res) =>
      specError(req, res, 422, 'validation_error', 'Invalid request body.', { details }),
    );
    const error = await failure(postGroup());
    expect(error).toMatchObject({ status: 422, code: 'validation_error', retryable: false, details });
    expect(validationIssues(error)).toEqual([{ field: 'body.name', message: 'must not be empty' }]);
  });

  it('reads per-field details given as an object of messages too, and nothing from other errors', async () => {
    server.handle((req, res) =>
      specError(req, res, 422, 'validation_error', 'Invalid.', {
        details: { name: ['too long', 'bad chars'], 7: 1 },
      }),
    );
    expect(validationIssues(await failure(postGroup()))).toEqual([
      { field: 'name', message: 'too long' },
      { field: 'name', message: 'bad chars' },
    ]);
    server.handle((req, res) => specError(req, res, 404, 'not_found', 'Gone.'));
    expect(validationIssues(await failure(getHealth()))).toEqual([]);
  });

  it('uses the request_id the server reports, even when it differs from the one sent', async () => {
    server.handle((_req, res) =>
      json(res, 404, {
        error: { code: 'not_found', message: 'No such domain.', request_id: 'server-side-id' },
      }),
    );
    const error = await failure(getHealth());
    expect(error.requestId).toBe('server-side-id');
  });

  it('keeps a code the spec does not list', async () => {
    server.handle((req, res) => specError(req, res, 409, 'already_exists', 'Domain exists.'));
    const error = await failure(postGroup());
    expect(error).toMatchObject({
      status: 409,
      code: 'already_exists',
      message: 'Domain exists.',
      retryable: false,
    });
  });

  it('503 on a POST is not retryable, 429 on a POST is', async () => {
    server.handle((req, res) => specError(req, res, 503, 'score_unavailable', 'Later.'));
    expect((await failure(postGroup())).retryable).toBe(false);
    server.handle((req, res) => specError(req, res, 429, 'http_error', 'Slow down.'));
    expect((await failure(postGroup())).retryable).toBe(true);
  });

  it('reports Retry-After in milliseconds', async () => {
    server.handle((req, res) =>
      specError(req, res, 429, 'http_error', 'Slow down.', {}, { 'retry-after': '7' }),
    );
    expect((await failure(getHealth())).retryAfterMs).toBe(7000);
  });
});

describe('bodies that are not what the spec promises', () => {
  it('an HTML error page with 502 → http_error naming the status and the HTML, retryable for GET', async () => {
    server.handle((_req, res) =>
      raw(res, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html'),
    );
    const error = await failure(getHealth());
    expect(error).toMatchObject({ status: 502, code: 'http_error', retryable: true });
    expect(error.message).toContain('502');
    expect(error.message).toContain('HTML');
    expect(error.requestId).toBe(server.requests[0]?.headers['x-request-id']);
  });

  it('an HTML page with 200 (captive portal, wrong base URL) → malformed_response', async () => {
    server.handle((_req, res) =>
      raw(res, 200, '<!doctype html><title>Sign in to Wi-Fi</title>', 'text/html'),
    );
    const error = await failure(getHealth());
    expect(error).toMatchObject({ status: 200, code: 'malformed_response', retryable: false });
    expect(error.message).toContain('HTML');
  });

  it('invalid JSON with 200 → malformed_response', async () => {
    server.handle((_req, res) => raw(res, 200, '{data: nope}', 'application/json'));
    const error = await failure(getHealth());
    expect(error).toMatchObject({ status: 200, code: 'malformed_response' });
    expect(error.message).toContain('not valid JSON');
  });

  it('a JSON object without data → malformed_response', async () => {
    server.handle((_req, res) => json(res, 200, { foo: 1 }));
    const error = await failure(getHealth());
    expect(error).toMatchObject({ status: 200, code: 'malformed_response' });
    expect(error.message).toContain('without "data"');
  });

  it('a JSON array or scalar at the top level → malformed_response', async () => {
    server.handle((_req, res) => json(res, 200, [{ data: 1 }]));
    expect((await failure(getHealth())).code).toBe('malformed_response');
    server.handle((_req, res) => json(res, 200, 'data'));
    expect((await failure(getHealth())).code).toBe('malformed_response');
  });

  it('truncated JSON → malformed_response', async () => {
    server.handle((_req, res) =>
      raw(res, 200, '{"data": {"fqdn": "example.com", "protocols": {"dmarc": tr', 'application/json'),
    );
    expect((await failure(getHealth())).code).toBe('malformed_response');
  });

  it('an empty 200 body → malformed_response', async () => {
    server.handle((_req, res) => raw(res, 200, '', 'application/json'));
    const error = await failure(getHealth());
    expect(error.code).toBe('malformed_response');
    expect(error.message).toContain('empty');
  });

  it('a body cut off by the connection closing early → network_error', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data": [1, 2, 3');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const error = await failure(getHealth());
    expect(error).toMatchObject({ status: 0, code: 'network_error' });
  });

  it('a huge valid body (about 8 MB) decodes fine, unknown fields kept', async () => {
    const items = Array.from({ length: 40_000 }, (_, i) => ({
      id: i,
      fqdn: `d${i}.example.com`,
      note: 'x'.repeat(150),
    }));
    server.handle((_req, res) =>
      json(res, 200, {
        data: items,
        pagination: { page: 1, limit: 40000, total: 40000, has_more: false },
        extra: 'kept',
      }),
    );
    const result = await client().get('/domains');
    expect(Array.isArray(result.data)).toBe(true);
    expect(result.data).toHaveLength(40_000);
    expect(result.data[39_999]).toMatchObject({ id: 39_999, note: 'x'.repeat(150) });
    expect(result.pagination).toEqual({ page: 1, limit: 40000, total: 40000, has_more: false });
    expect(result.envelope.extra).toBe('kept');
  });

  it('a body beyond maxBodyBytes is refused with malformed_response instead of being buffered', async () => {
    server.handle((_req, res) => json(res, 200, { data: 'y'.repeat(5000) }));
    const small = createApiClient({
      baseUrl: server.origin,
      token: TOKEN,
      clock: fakeClock(),
      maxBodyBytes: 1000,
    });
    const error = await failure(small.get('/health'));
    expect(error.code).toBe('malformed_response');
    expect(error.message).toContain('1000 bytes');
  });

  it('an error status with a JSON body that is not an error envelope → http_error', async () => {
    server.handle((_req, res) => json(res, 500, { oops: true }));
    expect(await failure(getHealth())).toMatchObject({ status: 500, code: 'http_error', retryable: false });
  });

  it('a redirect is not followed (the token must not travel) and says where it pointed', async () => {
    server.handle((_req, res) => {
      res.writeHead(301, { location: 'https://elsewhere.example/api/v1/health?x=1' });
      res.end();
    });
    const error = await failure(getHealth());
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ status: 301, code: 'http_error', retryable: false });
    expect(error.message).toContain('https://elsewhere.example/api/v1/health');
    expect(error.message).not.toContain('x=1');
  });

  it('success keeps unknown envelope fields and extra data fields', async () => {
    server.handle((_req, res) =>
      json(res, 200, { data: { status: 'ok', version: 'v1', build: 'abc' }, meta: { region: 'eu' } }),
    );
    const result = await client().get('/health');
    expect(result.data).toEqual({ status: 'ok', version: 'v1', build: 'abc' });
    expect(result.envelope.meta).toEqual({ region: 'eu' });
    expect(result.pagination).toBeUndefined();
    expect(result.requestId).toBe(server.requests[0]?.headers['x-request-id']);
  });
});

describe('failures before any response', () => {
  it('a refused connection → network_error with status 0, retryable for GET only', async () => {
    const closed = await startTestServer();
    const origin = closed.origin;
    await closed.close();
    const c = createApiClient({
      baseUrl: origin,
      token: TOKEN,
      clock: fakeClock(),
      retry: { maxAttempts: 1 },
    });
    const get = await failure(c.get('/health'));
    expect(get).toMatchObject({ status: 0, code: 'network_error', retryable: true });
    expect(get.message).toMatch(/ECONNREFUSED/);
    const post = await failure(c.post('/domain-groups', { body: { name: 'x' } }));
    expect(post).toMatchObject({ status: 0, code: 'network_error', retryable: false });
  });

  it('a failing token provider → token_unavailable, nothing sent', async () => {
    server.handle((_req, res) => json(res, 200, { data: {} }));
    const c = createApiClient({
      baseUrl: server.origin,
      token: async () => {
        throw new Error('keychain is locked');
      },
    });
    const error = await failure(c.get('/health'));
    expect(error).toMatchObject({ status: 0, code: 'token_unavailable', retryable: false });
    expect(error.message).toContain('keychain is locked');
    expect(server.requests).toHaveLength(0);
  });

  it('a token that cannot be a header value → token_unavailable', async () => {
    const c = createApiClient({ baseUrl: server.origin, token: 'aw_live_with\nnewline' });
    expect((await failure(c.get('/health'))).code).toBe('token_unavailable');
  });

  it('a body that cannot be serialized → invalid_request', async () => {
    const c = client();
    const body = { name: 10n } as unknown as { name: string };
    expect(await failure(c.post('/domain-groups', { body }))).toMatchObject({
      status: 0,
      code: 'invalid_request',
    });
  });

  it('a cancelled call → aborted', async () => {
    server.handle(() => undefined); // never answers
    const controller = new AbortController();
    const pending = client(4).get('/health', { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    expect(await failure(pending)).toMatchObject({ status: 0, code: 'aborted', retryable: false });
  });

  it('a non-http base URL is refused with invalid_base_url', () => {
    expect(() => createApiClient({ baseUrl: 'ftp://host/api/v1' })).toThrowError(ApiError);
    try {
      createApiClient({ baseUrl: 'ftp://host/api/v1' });
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_base_url', status: 0 });
      expect((error as ApiError).message).toContain('https://');
    }
  });
});
