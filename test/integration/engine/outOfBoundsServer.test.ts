/**
 * The audit's server that answers the right shapes with values the document does not allow (issue 12,
 * items 1 and 2): every number of every answer turned negative, or one domain's answers given for another.
 * Nothing of it may be stored or become an alert: each signal records a malformed_response, the mirror keeps
 * the last good data, and the real portfolio is still there (a garbage domain list removes no domain).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncState } from '../../../main/core/mirror/types.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

type Mode = 'pass' | 'negative' | 'other_domain';

/** The audit's transform: n becomes −n − 1 (score 10 → −11, total_protocols 5 → −6, domain 3 → −4). */
function negated(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(negated);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, negated(v)]));
  }
  return typeof value === 'number' ? -value - 1 : value;
}

/** A proxy on 127.0.0.1 in front of the service that turns its answers into the chosen garbage. */
async function startLyingProxy(target: string, domainIds: number[]) {
  let mode: Mode = 'pass';
  const [first, second] = domainIds as [number, number];
  // Each domain's per-domain calls are sent to the other domain: right shape, right bounds, wrong domain.
  const swap = (url: string) =>
    url.replace(/\/domains\/(\d+)(?=\/|\?|$)/, (_m, id: string) => {
      const n = Number(id);
      return `/domains/${n === first ? second : n === second ? first : n}`;
    });
  const server: Server = createServer((req, res) => {
    void (async () => {
      const headers: Record<string, string> = {};
      for (const name of ['x-api-token', 'x-request-id', 'accept']) {
        const v = req.headers[name];
        if (typeof v === 'string') headers[name] = v;
      }
      const url = mode === 'other_domain' ? swap(req.url ?? '/') : (req.url ?? '/');
      const upstream = await fetch(target + url, { method: req.method, headers });
      let body = Buffer.from(await upstream.arrayBuffer());
      if (mode === 'negative' && upstream.status === 200 && !req.url?.includes('/auth/')) {
        const parsed = JSON.parse(body.toString('utf8')) as { data: unknown };
        body = Buffer.from(JSON.stringify({ ...parsed, data: negated(parsed.data) }));
      }
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
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
    setMode(m: Mode) {
      mode = m;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const DOMAINS = ['north.example', 'south.example'];
const HOUR = 3_600_000;
const PER_DOMAIN = ['health', 'security_score', 'failed_sources', 'score_history'];

describe('a server answering values the document does not allow', () => {
  let world: EngineWorld;
  let proxy: Awaited<ReturnType<typeof startLyingProxy>>;
  let engine: TestEngine;
  let accountId: number;

  /** What the user sees: the portfolio with its posture, every alert, and what was notified. */
  async function seen() {
    const overview = await engine.app.overview({ accountId });
    return {
      domains: overview.map((r) => ({ id: r.domainId, fqdn: r.fqdn, health: r.health, score: r.score })),
      alerts: await engine.app.listAlerts({ accountId }),
      notified: engine.notifier.notified.length,
    };
  }
  const states = (signal: string): SyncState[] =>
    engine.mirror.getSyncStates(accountId).filter((s) => s.signal === signal);

  beforeAll(async () => {
    world = await startWorld(DOMAINS);
    proxy = await startLyingProxy(world.svc.origin, Object.values(world.domainIds));
    engine = openEngine(world, { timeoutMs: 2_000 });
    const added = await engine.app.addAccount({ label: 'Audit', baseUrl: proxy.url, token: world.token });
    accountId = added.account.id;
    await engine.app.syncNow({ accountId });
  });
  afterAll(async () => {
    await engine?.close();
    await proxy?.close();
    await world?.close();
  });

  it.each<[Mode, string[]]>([
    ['negative', ['domains', ...PER_DOMAIN]],
    ['other_domain', PER_DOMAIN],
  ])('%s: a malformed_response on each signal, no alert, the last good data kept', async (mode, signals) => {
    const before = await seen();
    expect(before.domains.map((d) => d.fqdn).sort()).toEqual(DOMAINS);
    expect(before.domains.every((d) => d.health !== null && d.score !== null)).toBe(true);

    proxy.setMode(mode);
    // Past every target period (history series included), so the pass fetches every signal.
    world.svc.clock.advance(7 * HOUR);
    const [result] = await engine.app.syncNow({ accountId });
    proxy.setMode('pass');

    expect(result!.failed).toBeGreaterThan(0);
    expect(await seen()).toEqual(before);
    for (const signal of signals) {
      const failing = states(signal);
      expect(failing.length, signal).toBeGreaterThan(0);
      for (const state of failing)
        expect(state.lastError?.code, `${signal} ${state.fqdn}`).toBe('malformed_response');
    }
  });

  it('with the real answers back, every signal recovers and still no alert is raised', async () => {
    world.svc.clock.advance(7 * HOUR);
    const before = await seen();
    const [result] = await engine.app.syncNow({ accountId });
    expect(result!.failed).toBe(0);
    expect((await seen()).alerts).toEqual(before.alerts);
    for (const signal of ['domains', ...PER_DOMAIN]) {
      for (const state of states(signal)) expect(state.lastError, signal).toBeNull();
    }
  });
});
