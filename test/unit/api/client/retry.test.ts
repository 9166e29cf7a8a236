import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type ApiEvent } from '../../../../shared/api/client.ts';
import { fakeClock, type FakeClock } from './fakeClock.ts';
import { json, raw, specError, startTestServer, type Handler, type TestServer } from './testServer.ts';
import { rejection } from '../../../support/rejection.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function client(clock: FakeClock, extra: Partial<Parameters<typeof createApiClient>[0]> = {}) {
  return createApiClient({ baseUrl: server.origin, token: 'aw_live_RetryTestToken', clock, ...extra });
}

/** Answers the n-th request (0-based) with handlers[n], the last one repeating. */
function sequence(...handlers: Handler[]): void {
  let n = 0;
  server.handle((req, res) => {
    const handler = handlers[Math.min(n, handlers.length - 1)];
    n += 1;
    return handler?.(req, res);
  });
}

const ok: Handler = (_req, res) => json(res, 200, { data: { status: 'ok', version: 'v1' } });
const status =
  (code: number, headers: Record<string, string> = {}): Handler =>
  (req, res) =>
    specError(req, res, code, code === 429 ? 'http_error' : 'internal_error', `HTTP ${code}`, {}, headers);

/** The ApiError a call rejects with (fails the test if it resolves or throws anything else). */
const failure = (call: Promise<unknown>) => rejection(call, ApiError);

const getHealth = (c: ReturnType<typeof client>) =>
  c.get('/domains/{domain_id}/health', { params: { path: { domain_id: 1 } } });
const postGroup = (c: ReturnType<typeof client>) => c.post('/domain-groups', { body: { name: 'Clients' } });

describe('backoff on 429', () => {
  it('without Retry-After: exponential windows of 1 s, 2 s, 4 s with full jitter, then gives up after 4 attempts', async () => {
    sequence(status(429));
    const clock = fakeClock([0.5, 0.75, 0.1]);
    const error = await failure(getHealth(client(clock)));
    expect(server.requests).toHaveLength(4);
    expect(clock.sleeps).toEqual([500, 1500, 400]);
    expect(error).toMatchObject({ status: 429, code: 'http_error', retryable: true });
  });

  it('the window is capped by maxDelayMs and the count by maxAttempts', async () => {
    sequence(status(429));
    const clock = fakeClock([0.999]);
    await failure(
      getHealth(client(clock, { retry: { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 5000 } })),
    );
    expect(server.requests).toHaveLength(6);
    expect(clock.sleeps).toEqual([999, 1998, 3996, 4995, 4995]);
  });

  it('follows Retry-After in seconds, then succeeds', async () => {
    sequence(status(429, { 'retry-after': '1' }), status(429, { 'retry-after': '3' }), ok);
    const clock = fakeClock([0]);
    const result = await getHealth(client(clock));
    expect(result.status).toBe(200);
    expect(clock.sleeps).toEqual([1000, 3000]);
    expect(server.requests).toHaveLength(3);
  });

  it('follows Retry-After as an HTTP date', async () => {
    const clock = fakeClock([0]);
    const at = new Date(clock.now() + 5000).toUTCString();
    sequence(status(429, { 'retry-after': at }), ok);
    await getHealth(client(clock));
    expect(clock.sleeps).toEqual([5000]);
  });

  it('a Retry-After longer than maxRetryAfterMs ends the call with retryAfterMs for the scheduler', async () => {
    sequence(status(429, { 'retry-after': '3600' }));
    const clock = fakeClock();
    const error = await failure(getHealth(client(clock)));
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 3_600_000 });
  });

  it('retries a POST on 429, since the server did not process it', async () => {
    sequence(status(429), ok);
    const clock = fakeClock([0.3]);
    const result = await postGroup(client(clock));
    expect(result.status).toBe(200);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(server.requests.map((r) => JSON.parse(r.body))).toEqual([
      { name: 'Clients' },
      { name: 'Clients' },
    ]);
    expect(clock.sleeps).toEqual([300]);
  });

  it('keeps one request id across the retries of one call', async () => {
    sequence(status(429), status(503), ok);
    await getHealth(client(fakeClock([0])));
    const ids = new Set(server.requests.map((r) => r.headers['x-request-id']));
    expect(server.requests).toHaveLength(3);
    expect(ids.size).toBe(1);
  });
});

describe('transient failures', () => {
  it.each([502, 503, 504])('GET is retried after %i and succeeds', async (code) => {
    sequence(status(code), ok);
    const clock = fakeClock([0.5]);
    const result = await getHealth(client(clock));
    expect(result.data).toEqual({ status: 'ok', version: 'v1' });
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([500]);
  });

  it('GET honours Retry-After on 503 too', async () => {
    sequence(status(503, { 'retry-after': '2' }), ok);
    const clock = fakeClock([0.5]);
    await getHealth(client(clock));
    expect(clock.sleeps).toEqual([2000]);
  });

  it('POST is not retried on 503 (it may have taken effect)', async () => {
    sequence(status(503), ok);
    const clock = fakeClock();
    const error = await failure(postGroup(client(clock)));
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(error).toMatchObject({ status: 503, retryable: false });
  });

  it('GET is not retried on 500', async () => {
    sequence(status(500), ok);
    const error = await failure(getHealth(client(fakeClock())));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ status: 500, code: 'internal_error', retryable: false });
  });

  it('stops after maxAttempts when the server keeps failing', async () => {
    sequence(status(503));
    const clock = fakeClock([0]);
    const error = await failure(getHealth(client(clock, { retry: { maxAttempts: 3 } })));
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
    expect(error).toMatchObject({ status: 503, retryable: true });
  });

  it('GET is retried after a dropped connection (network error)', async () => {
    sequence((_req, res) => {
      res.socket?.destroy();
    }, ok);
    const clock = fakeClock([0.5]);
    const result = await getHealth(client(clock));
    expect(result.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it('POST is not retried after a dropped connection', async () => {
    sequence((_req, res) => {
      res.socket?.destroy();
    }, ok);
    const error = await failure(postGroup(client(fakeClock())));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ status: 0, code: 'network_error', retryable: false });
  });
});

describe('timeouts', () => {
  const slow: Handler = (_req, res) => {
    setTimeout(() => json(res, 200, { data: 'late' }), 1000);
  };

  it('a GET that gets no answer in time times out and is retried', async () => {
    sequence(slow, ok);
    const events: ApiEvent[] = [];
    const clock = fakeClock([0.5]);
    const result = await getHealth(client(clock, { timeoutMs: 100, onEvent: (e) => events.push(e) }));
    expect(result.data).toEqual({ status: 'ok', version: 'v1' });
    expect(server.requests).toHaveLength(2);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ code: 'timeout', status: 0, attempt: 1 });
  });

  it('a POST that times out fails with timeout and is not retried', async () => {
    sequence(slow);
    const error = await failure(postGroup(client(fakeClock(), { timeoutMs: 100 })));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ status: 0, code: 'timeout', retryable: false });
    expect(error.message).toContain('100 ms');
  });

  it('a server that sends headers and then stalls the body also times out', async () => {
    sequence((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": ');
    });
    const error = await failure(
      getHealth(client(fakeClock([0]), { timeoutMs: 100, retry: { maxAttempts: 2 } })),
    );
    expect(server.requests).toHaveLength(2);
    expect(error).toMatchObject({ status: 0, code: 'timeout', retryable: true });
  });

  it('the deadline holds even when the fetch implementation ignores its abort signal', async () => {
    const deaf = () => new Promise<Response>(() => undefined);
    const api = createApiClient({
      baseUrl: server.origin,
      fetch: deaf,
      clock: fakeClock([0]),
      timeoutMs: 50,
      retry: { maxAttempts: 2 },
    });
    const error = await failure(api.get('/health'));
    expect(error).toMatchObject({ status: 0, code: 'timeout', retryable: true });
  });

  it('a per-call timeout overrides the client default', async () => {
    sequence(slow);
    const c = client(fakeClock(), { timeoutMs: 60_000, retry: { maxAttempts: 1 } });
    const started = Date.now();
    const error = await failure(
      c.get('/domains/{domain_id}/health', { params: { path: { domain_id: 1 } }, timeoutMs: 80 }),
    );
    expect(error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe('events', () => {
  it('reports attempt, response, retry with its delay, and the final error', async () => {
    sequence(status(503), (_req, res) => raw(res, 200, 'not json', 'text/plain'));
    const events: ApiEvent[] = [];
    const clock = fakeClock([0.5]);
    await failure(getHealth(client(clock, { onEvent: (e) => events.push(e) })));
    expect(events.map((e) => e.type)).toEqual([
      'attempt',
      'response',
      'retry',
      'attempt',
      'response',
      'error',
    ]);
    expect(events[2]).toMatchObject({
      type: 'retry',
      status: 503,
      code: 'internal_error',
      delayMs: 500,
      attempt: 1,
    });
    expect(events[5]).toMatchObject({ type: 'error', code: 'malformed_response', status: 200, attempt: 2 });
    for (const event of events) {
      expect(event.method).toBe('GET');
      expect(event.path).toBe('/api/v1/domains/1/health');
      expect(event.requestId).toBe(server.requests[0]?.headers['x-request-id']);
    }
  });

  it('a throwing onEvent hook does not change the outcome', async () => {
    sequence(ok);
    const result = await getHealth(
      client(fakeClock(), {
        onEvent: () => {
          throw new Error('logger broke');
        },
      }),
    );
    expect(result.status).toBe(200);
  });
});
