// Every error the service sends is the interface's envelope {error: {code, message, request_id}} with the
// request id in X-Request-Id too, and none is a 5xx — whatever arrives: huge ids and page numbers, bad JSON,
// wrong content types, 20 KB paths, NUL bytes, unknown routes, methods no route has. Sent to every operation
// of the document under both base paths, byte for byte on a socket (fetch refuses most of these).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_V1_SCOPE_IDS } from '../../../service/auth/scopes.ts';
import { documentRuntime } from '../../../service/openapi/documentRuntime.ts';
import type { DocumentOperation } from '../../../service/openapi/document.ts';
import { rawRequest } from '../../support/rawHttp.ts';
import type { RawResponse } from '../../support/rawHttp.ts';
import { startService, stopService } from '../../support/serviceHarness.ts';
import type { ServiceHarness } from '../../support/serviceHarness.ts';

const OPERATIONS = documentRuntime().operations;
const BASES = ['/api/v1', '/v1'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let svc: ServiceHarness;
let port: number;
let token: string;

beforeAll(async () => {
  // A limit no loop here reaches: a 429 would hide the answer under test.
  svc = await startService({ rateLimitPerMinute: 1_000_000, publicRateLimitPerMinute: 1_000_000 });
  port = Number(new URL(svc.origin).port);
  token = (await svc.createToken([...ALL_V1_SCOPE_IDS])).token;
});
afterAll(() => stopService(svc));

/** The operation's path with every parameter replaced by `value(name)`. */
function pathWith(
  op: DocumentOperation,
  value: (param: { name: string; integer: boolean }) => string,
): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const schema = op.parameters.find((p) => p.in === 'path' && p.name === name)?.schema ?? {};
    return value({ name, integer: schema.type === 'integer' });
  });
}
/** Ids nothing has, so a write that gets through validation changes nothing (404). */
const absent = (p: { integer: boolean }) => (p.integer ? '987654' : 'no-such-id');

interface Hostile {
  what: string;
  method: string;
  target: string | Buffer;
  headers?: Record<string, string>;
  body?: Buffer;
  /** The request id is echoed (false when Node's parser refuses the request before any header is read). */
  echoes?: boolean;
}

function send(h: Hostile, requestId: string): Promise<RawResponse> {
  const headers = {
    'x-api-token': token,
    'x-request-id': requestId,
    accept: 'application/json',
    ...h.headers,
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  const start = Buffer.concat([
    Buffer.from(`${h.method} `),
    Buffer.isBuffer(h.target) ? h.target : Buffer.from(h.target, 'latin1'),
    Buffer.from(` HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${lines.join('\r\n')}`),
  ]);
  return rawRequest(port, start, h.body);
}

/** Checks one answer; returns a description of what is wrong, or null. */
function problemOf(h: Hostile, res: RawResponse, requestId: string): string | null {
  if (res.status >= 500) return `${res.status} ${res.text.slice(0, 200)}`;
  if (res.status < 400) return null; // harmless input the operation may accept (a body it ignores)
  const error = (res.json as { error?: Record<string, unknown> } | undefined)?.error;
  const keys = error ? Object.keys(error).sort().join(',') : '';
  if (!error || (keys !== 'code,message,request_id' && keys !== 'code,details,message,request_id'))
    return `${res.status} not the envelope: ${res.text.slice(0, 200)}`;
  if (typeof error.code !== 'string' || typeof error.message !== 'string') return 'code/message not strings';
  if (typeof error.request_id !== 'string' || !UUID.test(error.request_id)) return 'request_id not a UUID';
  if (res.headers['x-request-id'] !== error.request_id) return 'X-Request-Id differs from request_id';
  if (h.echoes !== false && error.request_id !== requestId) return 'request id not echoed';
  if (!res.headers['content-type']?.startsWith('application/json')) return 'not application/json';
  return null;
}

function hostileInputs(op: DocumentOperation, base: string): Hostile[] {
  const valid = base + pathWith(op, absent);
  const withBody = op.requestBody !== null;
  const list: Hostile[] = [
    { what: 'huge ids', method: op.method, target: base + pathWith(op, () => '9'.repeat(150)) },
    {
      what: 'huge page and limit',
      method: op.method,
      target: `${valid}?page=99999999999999999999&limit=1e400&start_date=${'9'.repeat(300)}`,
    },
    { what: 'NUL in ids', method: op.method, target: base + pathWith(op, () => '1%00') },
    {
      what: 'NUL byte in the request line',
      method: op.method,
      target: Buffer.from(`${valid}\u0000x`, 'latin1'),
      echoes: false,
    },
    { what: '20 KB path', method: op.method, target: `${valid}/${'a'.repeat(20_000)}`, echoes: false },
    {
      what: 'malformed percent-encoding',
      method: op.method,
      target: `${base}${pathWith(op, () => '%E0%A4%A')}`,
    },
    { what: 'unknown route', method: op.method, target: `${valid}/no-such-thing` },
    { what: 'TRACE', method: 'TRACE', target: valid },
    { what: 'PROPFIND', method: 'PROPFIND', target: valid },
    { what: 'method FOO', method: 'FOO', target: valid, echoes: false },
    {
      what: 'bad JSON',
      method: op.method,
      target: valid,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"name": "x",'),
    },
    {
      what: 'bytes that are not UTF-8',
      method: op.method,
      target: valid,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    },
    {
      what: 'text/plain body',
      method: op.method,
      target: valid,
      headers: { 'content-type': 'text/plain' },
      body: Buffer.from('hello'),
    },
    {
      what: 'form body',
      method: op.method,
      target: valid,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from('a=1&b=2'),
    },
  ];
  // Bodies near the 1 MiB limit cost time: sent once per operation that takes a body, under the primary base.
  if (withBody && base === BASES[0])
    list.push(
      {
        what: 'JSON nested 400,000 deep',
        method: op.method,
        target: valid,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('['.repeat(400_000) + ']'.repeat(400_000)),
      },
      {
        what: 'body over 1 MiB',
        method: op.method,
        target: valid,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ name: 'x'.repeat(1_100_000) })),
      },
    );
  return list;
}

describe('hostile input to every route', () => {
  for (const base of BASES) {
    it(`answers every operation under ${base} with the error envelope, never a 5xx`, async () => {
      const failures: string[] = [];
      for (const op of OPERATIONS) {
        for (const h of hostileInputs(op, base)) {
          const requestId = randomUUID();
          const res = await send(h, requestId);
          const problem = problemOf(h, res, requestId);
          if (problem) failures.push(`${op.method} ${op.path} — ${h.what}: ${problem}`);
        }
      }
      expect(failures.slice(0, 20), `${failures.length} bad answers`).toEqual([]);
    }, 120_000);
  }

  it('answers a path id over 100 characters with the documented 422 naming the parameter', async () => {
    for (const base of BASES) {
      const res = await send(
        { what: 'long id', method: 'GET', target: `${base}/domains/${'1'.repeat(120)}` },
        randomUUID(),
      );
      expect(res.status).toBe(422);
      expect((res.json as { error: { details: unknown } }).error.details).toEqual([
        { field: 'path.domain_id', message: 'is out of range' },
      ]);
    }
  });

  it('answers requests outside the API (unknown prefix, bare host) with the envelope too', async () => {
    for (const target of ['/', '/api/v2/domains', '/api/v1', '/_sandbox/nope', '/%ZZ']) {
      const requestId = randomUUID();
      const h: Hostile = { what: target, method: 'GET', target };
      expect(problemOf(h, await send(h, requestId), requestId), target).toBeNull();
    }
  });
});
