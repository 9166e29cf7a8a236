/**
 * Starts the reference service for a test suite (127.0.0.1, port 0, in-memory SQLite) and talks to it over
 * real HTTP. EVERY response received through `call` is checked against the document (status documented,
 * body matches the schema, standard headers present); call `expectNoContractViolations()` in afterAll.
 *
 *   const svc = await startService();                 // demo seed, sandbox key, manual clock
 *   const { token } = await svc.createToken(['me:read']);
 *   const res = await svc.call('GET', '/me', { token });
 *   afterAll(() => stopService(svc));                 // contract check, then close
 */
import type { FastifyInstance } from 'fastify';
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import { buildService, type BuildServiceOptions } from '../../service/app.ts';
import { openServiceDb } from '../../service/db/openServiceDb.ts';
import type { ServiceDb } from '../../service/db/openServiceDb.ts';
import type { OperationHandlers } from '../../service/http/operation.ts';
import { seedDemo, seedDemoData } from '../../service/seed/demo.ts';
import type { DemoSeed } from '../../service/seed/demo.ts';
import { ContractValidator } from './contractValidator.ts';
import { createManualClock } from './manualClock.ts';
import type { ManualClock } from './manualClock.ts';

/** Sandbox key the harness starts the service with (unless told otherwise). */
export const TEST_SANDBOX_KEY = 'test-sandbox-key';

/** Options of startService. */
export interface HarnessOptions {
  /**
   * 'demo' (default) seeds the demo account; 'demo-data' the account with its portfolio and 90 days of
   * history (service/seed/demo.ts seedDemoData, slow: seconds); false starts empty.
   */
  seed?: 'demo' | 'demo-data' | false;
  /** Per-token limit; the harness default is 1000 so suites do not trip it by accident; null = service default. */
  rateLimitPerMinute?: number | null;
  /** Per-IP limit of public operations; harness default 1000; null = service default. */
  publicRateLimitPerMinute?: number | null;
  /** A manual clock (default: one standing at 2026-06-15T12:00:00Z). */
  clock?: ManualClock;
  /** Sandbox key; null disables the sandbox controls. */
  sandboxKey?: string | null;
  /** Handler overrides by operationId. */
  handlers?: OperationHandlers;
  /** Handlers the service starts from (default: all of service/operations). */
  baseHandlers?: OperationHandlers;
  resolver?: DnsResolve;
  /** The address it listens on (default 127.0.0.1; '::1' for IPv6). */
  host?: string;
  /**
   * The reference world's TLS servers, for the sandbox's TLS controls. The world needs the service's database,
   * so a test passes an object here and fills it in once the world is started (the service reads it per call).
   */
  tlsWorld?: BuildServiceOptions['tlsWorld'];
}

/** One HTTP exchange. */
export interface HarnessResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON (undefined when the body is empty; the raw text when not JSON). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Options of one call. */
export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as is (with the content-type of `headers`, default application/json). */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  /** Which base path to use (default primary /api/v1). */
  base?: 'primary' | 'alt';
}

/** A running service and its client. */
export interface ServiceHarness {
  baseUrl: string;
  altBaseUrl: string;
  origin: string;
  app: FastifyInstance;
  db: ServiceDb;
  clock: ManualClock;
  seed: DemoSeed | null;
  call(method: string, path: string, options?: CallOptions): Promise<HarnessResponse>;
  sandbox(
    method: string,
    path: string,
    body?: unknown,
    options?: { key?: string | null },
  ): Promise<HarnessResponse>;
  createToken(
    scopes: string[],
    options?: { userId?: number; expiresInDays?: number; name?: string },
  ): Promise<{ id: number; token: string }>;
  violations: readonly string[];
  expectNoContractViolations(): void;
  close(): Promise<void>;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Starts the service; see HarnessOptions. */
export async function startService(options: HarnessOptions = {}): Promise<ServiceHarness> {
  const clock = options.clock ?? createManualClock();
  const db = openServiceDb(':memory:');
  const seed =
    options.seed === false
      ? null
      : options.seed === 'demo-data'
        ? await seedDemoData(db, { now: clock.now() })
        : seedDemo(db, { now: clock.now() });
  const sandboxKey = options.sandboxKey === undefined ? TEST_SANDBOX_KEY : options.sandboxKey;
  const app = buildService({
    db,
    clock: clock.now,
    sandboxKey,
    rateLimitPerMinute:
      options.rateLimitPerMinute === null ? undefined : (options.rateLimitPerMinute ?? 1000),
    publicRateLimitPerMinute:
      options.publicRateLimitPerMinute === null ? undefined : (options.publicRateLimitPerMinute ?? 1000),
    handlers: options.handlers,
    baseHandlers: options.baseHandlers,
    resolver: options.resolver,
    ...(options.tlsWorld ? { tlsWorld: options.tlsWorld } : {}),
  });
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: 0 });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('service did not bind');
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  const validator = new ContractValidator();

  const call: ServiceHarness['call'] = async (method, path, o = {}) => {
    const prefix = o.base === 'alt' ? '/v1' : '/api/v1';
    const url = new URL(origin + prefix + path);
    for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
    if (o.token !== undefined) headers['x-api-token'] = o.token;
    let body: string | undefined;
    if (o.rawBody !== undefined) {
      body = o.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url, { method, headers, body });
    const parsed = await readBody(res);
    validator.check(method, path.split('?')[0]!, res.status, res.headers, parsed);
    return { status: res.status, headers: res.headers, body: parsed };
  };

  const sandbox: ServiceHarness['sandbox'] = async (method, path, body, o = {}) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const key = o.key === undefined ? sandboxKey : o.key;
    if (key) headers['x-sandbox-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${origin}/_sandbox${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: await readBody(res) };
  };

  return {
    baseUrl: `${origin}/api/v1`,
    altBaseUrl: `${origin}/v1`,
    origin,
    app,
    db,
    clock,
    seed,
    call,
    sandbox,
    async createToken(scopes, o = {}) {
      const res = await sandbox('POST', '/tokens', {
        scopes,
        ...(o.userId === undefined ? {} : { user_id: o.userId }),
        ...(o.expiresInDays === undefined ? {} : { expires_in_days: o.expiresInDays }),
        ...(o.name === undefined ? {} : { name: o.name }),
      });
      if (res.status !== 201)
        throw new Error(`sandbox token creation failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: res.body.data.token_id as number, token: res.body.data.plain_text as string };
    },
    get violations() {
      return validator.violations;
    },
    expectNoContractViolations() {
      if (validator.violations.length > 0) {
        throw new Error(`Responses that break the document:\n${validator.violations.join('\n')}`);
      }
    },
    async close() {
      await app.close();
      db.close();
    },
  };
}

/** Checks that every response kept to the contract, then stops the service (for afterAll). */
export async function stopService(svc: ServiceHarness): Promise<void> {
  svc.expectNoContractViolations();
  await svc.close();
}
