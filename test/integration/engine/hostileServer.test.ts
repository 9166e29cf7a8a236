import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncState } from '../../../main/core/mirror/types.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

type Mode = 'pass' | 'garbage' | 'truncated' | 'html' | 'empty' | 'wrong_types' | 'error500' | 'hang';

/** Turns every value of a payload into the wrong JSON type, keeping its keys. */
function wrongTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? value.map(wrongTypes) : 'not-a-list';
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrongTypes(v)]));
  }
  if (typeof value === 'number') return `${value} apples`;
  if (typeof value === 'string') return 12345;
  if (typeof value === 'boolean') return 'maybe';
  return { unexpected: true };
}

/**
 * A server on 127.0.0.1 in front of the reference service: in 'pass' mode it forwards, otherwise it answers
 * API calls with garbage of the chosen kind.
 */
async function startHostileProxy(
  target: string,
): Promise<{ url: string; setMode(m: Mode): void; close(): Promise<void> }> {
  let mode: Mode = 'pass';
  const hanging = new Set<ServerResponse>();
  const forward = async (
    req: IncomingMessage,
  ): Promise<{ status: number; headers: Headers; body: Buffer }> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const name of ['x-api-token', 'x-request-id', 'content-type', 'accept']) {
      const v = req.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    const res = await fetch(target + req.url, {
      method: req.method,
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (mode === 'hang') {
        hanging.add(res);
        return;
      }
      if (mode === 'error500') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'internal_error', message: 'boom', request_id: 'r' } }));
        return;
      }
      if (mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22, 0x9c, 0x0a, 0x01, 0x02]));
        return;
      }
      if (mode === 'html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><html><body><h1>Please sign in</h1></body></html>');
        return;
      }
      if (mode === 'empty') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end();
        return;
      }
      const upstream = await forward(req);
      const type = upstream.headers.get('content-type') ?? 'application/json';
      let body = upstream.body;
      if (mode === 'truncated') body = body.subarray(0, Math.floor(body.length / 2));
      if (mode === 'wrong_types' && upstream.status === 200) {
        const parsed = JSON.parse(body.toString('utf8')) as { data: unknown };
        body = Buffer.from(JSON.stringify({ ...parsed, data: wrongTypes(parsed.data) }));
      }
      res.writeHead(upstream.status, { 'content-type': type });
      res.end(body);
    })().catch((error: unknown) => {
      res.writeHead(599);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('proxy did not bind');
  return {
    url: `http://127.0.0.1:${address.port}/api/v1`,
    setMode(m) {
      mode = m;
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
    async close() {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const DOMAINS = ['left.example', 'right.example'];
const HOUR = 3_600_000;
const CORE = ['dns_changes', 'health', 'failed_sources', 'security_score', 'health_history', 'score_history'];

describe('a hostile server', () => {
  let world: EngineWorld;
  let proxy: Awaited<ReturnType<typeof startHostileProxy>>;
  let engine: TestEngine;
  let accountId: number;

  /** What the user sees of the mirror: postures, histories and alerts (not the freshness bookkeeping). */
  async function snapshot() {
    const overview = await engine.app.overview({ accountId });
    const rows = [];
    for (const row of overview) {
      rows.push({
        fqdn: row.fqdn,
        health: row.health,
        score: row.score,
        openAlerts: row.openAlerts,
        dns: await engine.app.history({ kind: 'dns_events', accountId, domainId: row.domainId }),
        healthHistory: await engine.app.history({ kind: 'health', accountId, domainId: row.domainId }),
        scoreHistory: await engine.app.history({ kind: 'score', accountId, domainId: row.domainId }),
      });
    }
    return { rows, alerts: await engine.app.listAlerts({ accountId }) };
  }

  const states = (): SyncState[] => engine.mirror.getSyncStates(accountId);

  beforeAll(async () => {
    world = await startWorld(DOMAINS);
    // MTA-STS provisioned, so its read answers 200 and the proxy can corrupt it like every other read (a
    // genuine 404 not_found would be a valid "not set up" in every mode).
    for (const id of Object.values(world.domainIds)) {
      const res = await world.svc.call('POST', `/domains/${id}/mta-sts/setup`, { token: world.token });
      if (res.status !== 200) throw new Error(`mta-sts setup: ${res.status} ${JSON.stringify(res.body)}`);
    }
    proxy = await startHostileProxy(world.svc.origin);
    engine = openEngine(world, { timeoutMs: 300 });
    const added = await engine.app.addAccount({ label: 'Target', baseUrl: proxy.url, token: world.token });
    accountId = added.account.id;
    await engine.app.syncNow({ accountId });
  });
  afterAll(async () => {
    await engine?.close();
    await proxy?.close();
    await world?.close();
  });

  const cases: [Mode, string][] = [
    ['garbage', 'malformed_response'],
    ['truncated', 'malformed_response'],
    ['html', 'malformed_response'],
    ['empty', 'malformed_response'],
    ['wrong_types', 'malformed_response'],
    ['error500', 'internal_error'],
    ['hang', 'timeout'],
  ];

  it.each(cases)(
    '%s: typed %s errors on every signal, mirror unchanged, account still active',
    async (mode, code) => {
      const before = await snapshot();
      expect(before.rows).toHaveLength(2);
      expect(before.rows.every((r) => r.health !== null)).toBe(true);

      proxy.setMode(mode);
      // Past every target period, the history series' 6 h included: the pass fetches every signal.
      world.svc.clock.advance(7 * HOUR);
      const [result] = await engine.app.syncNow({ accountId });
      proxy.setMode('pass');

      expect(result!.paused).toBeNull();
      expect(result!.fetched).toBe(0);
      expect(await snapshot()).toEqual(before);
      for (const signal of ['domains', ...CORE]) {
        const failing = states().filter((s) => s.signal === signal);
        expect(failing.length, signal).toBeGreaterThan(0);
        for (const state of failing) {
          expect(state.lastError?.code, `${signal} ${state.fqdn}`).toBe(code);
          expect(state.consecutiveFailures).toBeGreaterThan(0);
          // Backed off: not due again before a minute has passed.
          expect(Date.parse(state.nextDueAt!)).toBeGreaterThanOrEqual(
            Date.parse(state.lastError!.at) + 60_000,
          );
        }
      }
      const status = await engine.app.syncStatus();
      expect(status.accounts[0]!.state).toBe('active');
    },
  );

  it('backs off longer after each failure in a row (exponential, capped)', () => {
    const health = states().find((s) => s.signal === 'health')!;
    expect(health.consecutiveFailures).toBe(cases.length);
    const delay = Date.parse(health.nextDueAt!) - Date.parse(health.lastError!.at);
    expect(delay).toBe(Math.min(60 * 60_000, 60_000 * 2 ** (cases.length - 1)));
  });

  it('recovers when the server behaves again: errors clear and data moves on', async () => {
    world.svc.clock.advance(2 * HOUR);
    const [result] = await engine.app.syncNow({ accountId });
    expect(result!.fetched).toBeGreaterThan(0);
    for (const signal of ['domains', ...CORE]) {
      for (const state of states().filter((s) => s.signal === signal)) {
        expect(state.consecutiveFailures, signal).toBe(0);
      }
    }
  });
});
