import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../../../shared/api/client.ts';
import { fakeClock } from './fakeClock.ts';
import { raw, startTestServer, type TestServer } from './testServer.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const encoder = new TextEncoder();

/** Bodies a real server, proxy or broken deployment might send. */
const body = fc.oneof(
  fc.string().map((s) => encoder.encode(s)),
  fc.jsonValue().map((v) => encoder.encode(JSON.stringify(v))),
  fc.jsonValue().map((v) => encoder.encode(JSON.stringify({ data: v }))),
  fc
    .record({ code: fc.string(), message: fc.oneof(fc.string(), fc.integer()), request_id: fc.jsonValue() })
    .map((error) => encoder.encode(JSON.stringify({ error }))),
  fc.jsonValue().map((v) => encoder.encode(JSON.stringify(v).slice(0, -1))),
  fc.uint8Array({ maxLength: 300 }),
);

const contentType = fc.constantFrom(
  'application/json',
  'text/html',
  'text/plain',
  'application/octet-stream',
);

describe('any answer from the socket', () => {
  it('becomes a data result or an ApiError, never anything else', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 200, max: 599 }),
        body,
        contentType,
        fc.constantFrom('GET', 'POST'),
        async (status, bytes, type, method) => {
          server.handle((_req, res) => raw(res, status, bytes, type));
          const api = createApiClient({
            baseUrl: server.origin,
            token: 'aw_live_PropertyToken',
            clock: fakeClock([0]),
            timeoutMs: 5000,
          });
          const call =
            method === 'GET'
              ? api.get('/domains/{domain_id}/health', { params: { path: { domain_id: 1 } } })
              : api.post('/domain-groups', { body: { name: 'g' } });
          let outcome: unknown;
          try {
            outcome = await call;
          } catch (error) {
            expect(error).toBeInstanceOf(ApiError);
            const e = error as ApiError;
            expect(typeof e.code).toBe('string');
            expect(typeof e.message).toBe('string');
            expect([status, 0]).toContain(e.status);
            return;
          }
          // A success only ever comes from a 2xx status, with an envelope that holds data.
          expect(status).toBeGreaterThanOrEqual(200);
          expect(status).toBeLessThan(300);
          expect(outcome).toHaveProperty('data');
          expect(outcome).toMatchObject({ status });
        },
      ),
      { numRuns: 100 },
    );
  });
});
