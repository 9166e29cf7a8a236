import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type ApiEvent } from '../../../../shared/api/client.ts';
import { fakeClock } from './fakeClock.ts';
import { json, raw, startTestServer, type Handler, type TestServer } from './testServer.ts';

const TOKEN = 'aw_live_S3CR3T_zebra_quokka_7731';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Everything a log line, a crash report or a UI could show about an error. */
function exposures(error: unknown): string[] {
  const e = error as ApiError;
  return [
    String(e),
    e.message,
    e.stack ?? '',
    JSON.stringify(e),
    inspect(e, { depth: 10 }),
    JSON.stringify(e.details ?? null),
  ];
}

const echoes: [string, Handler][] = [
  [
    'an error message quoting the token',
    (_req, res) =>
      json(res, 401, {
        error: { code: 'invalid_api_token', message: `Token ${TOKEN} is revoked`, request_id: 'r' },
      }),
  ],
  [
    'details and request_id quoting the token',
    (_req, res) =>
      json(res, 422, {
        error: {
          code: 'validation_error',
          message: 'Invalid.',
          request_id: TOKEN,
          details: [{ field: 'header.X-Api-Token', message: `bad value ${TOKEN}`, [TOKEN]: [TOKEN] }],
        },
      }),
  ],
  [
    'an error code made of the token',
    (_req, res) => json(res, 400, { error: { code: TOKEN, message: TOKEN } }),
  ],
  ['a bare error string', (_req, res) => json(res, 500, { error: `upstream rejected ${TOKEN}` })],
  [
    'an HTML page showing request headers',
    (_req, res) => raw(res, 502, `<html><pre>X-Api-Token: ${TOKEN}</pre></html>`, 'text/html'),
  ],
  ['a 200 garbage body with the token', (_req, res) => raw(res, 200, `debug token=${TOKEN}`, 'text/plain')],
  [
    'a redirect carrying the token',
    (_req, res) => {
      res.writeHead(302, { location: `https://evil.example/${TOKEN}?t=${TOKEN}` });
      res.end();
    },
  ],
];

describe('the token never leaks', () => {
  it.each(echoes)('%s: not in the ApiError nor in any event', async (_name, handler) => {
    server.handle(handler);
    const events: ApiEvent[] = [];
    const api = createApiClient({
      baseUrl: server.origin,
      token: async () => TOKEN,
      clock: fakeClock([0]),
      onEvent: (e) => events.push(e),
    });
    const error = await api
      .get('/domains/{domain_id}/health', { params: { path: { domain_id: 1 } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(server.requests[0]?.headers['x-api-token']).toBe(TOKEN);
    for (const text of exposures(error)) expect(text).not.toContain(TOKEN);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(events.length).toBeGreaterThan(0);
  });

  it('a message quoting the token still says what happened, with the token replaced', async () => {
    server.handle(echoes[0]![1]);
    const api = createApiClient({ baseUrl: server.origin, token: TOKEN, clock: fakeClock() });
    const error = (await api.get('/health').catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('Token [redacted] is revoked');
  });

  it('a token with characters a header cannot carry is refused without quoting it', async () => {
    const bad = `${TOKEN}\r\nX-Evil: 1`;
    const api = createApiClient({ baseUrl: server.origin, token: bad, clock: fakeClock() });
    const error = await api.get('/health').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'token_unavailable' });
    for (const text of exposures(error)) expect(text).not.toContain(TOKEN);
  });

  it('the token is not reachable from the client object', async () => {
    const api = createApiClient({ baseUrl: server.origin, token: TOKEN, clock: fakeClock() });
    expect(JSON.stringify(api) ?? '').not.toContain(TOKEN);
    expect(inspect(api, { depth: 10, showHidden: true })).not.toContain(TOKEN);
    expect(String(api)).not.toContain(TOKEN);
  });

  it('a network failure and a timeout do not mention the token', async () => {
    server.handle((_req, res) => {
      setTimeout(() => json(res, 200, { data: TOKEN }), 500);
    });
    const events: ApiEvent[] = [];
    const api = createApiClient({
      baseUrl: server.origin,
      token: TOKEN,
      clock: fakeClock([0]),
      timeoutMs: 50,
      retry: { maxAttempts: 2 },
      onEvent: (e) => events.push(e),
    });
    const error = await api.get('/health').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'timeout' });
    for (const text of exposures(error)) expect(text).not.toContain(TOKEN);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
  });
});
