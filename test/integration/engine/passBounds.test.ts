import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USAGE } from '../../../main/cli/args.ts';
import { PASS_RATE_LIMIT_PATIENCE_MS, passTimeLimitMs } from '../../../main/core/sync/failurePolicy.ts';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

/**
 * A manual pass ("Sync now", `sync --once`) is bounded however the service misbehaves: endless 429s with a
 * short Retry-After, a service that is not running, a service that answers every call slowly. Calls go to
 * the reference service until the account is added, then to the misbehaving one; the engine runs on the
 * service's virtual clock, so the waits cost no real time.
 */

/** Calls sent to the misbehaving side before the stand-in gives in, so that an unbounded pass still ends. */
const GIVE_IN_AFTER = 400;

/** A server on 127.0.0.1 answering every request 429 with Retry-After: 2. */
async function refusingServer(): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
    res.end(
      JSON.stringify({ error: { code: 'http_error', message: 'Too many requests.', request_id: 'r' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

/** The same request, sent to another origin on 127.0.0.1. */
function redirected(request: Request, port: number): Request {
  const url = new URL(request.url);
  url.port = String(port);
  return new Request(url, request);
}

describe('a manual pass against a misbehaving service', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  let accountId = 0;
  let misbehave: FetchLike | null = null;
  let sent = 0;

  beforeAll(async () => {
    world = await startWorld(['a.example', 'b.example', 'c.example', 'd.example', 'e.example', 'f.example']);
    const route: FetchLike = async (request) => {
      if (!misbehave || sent >= GIVE_IN_AFTER) return fetch(request);
      sent += 1;
      return misbehave(request);
    };
    engine = openEngine(world, { fetch: route });
    ({
      account: { id: accountId },
    } = await engine.app.addAccount({ label: 'Acme', baseUrl: world.svc.baseUrl, token: world.token }));
    misbehave = null;
    await engine.app.syncNow({ accountId }); // the domains are known: every later pass covers them
  });
  afterAll(async () => {
    await engine?.close();
    await world?.close();
  });

  async function pass(fetcher: FetchLike) {
    misbehave = fetcher;
    sent = 0;
    const started = world.svc.clock.now().getTime();
    try {
      const [result] = await engine.app.syncNow({ accountId });
      return { result: result!, tookMs: world.svc.clock.now().getTime() - started };
    } finally {
      misbehave = null;
    }
  }

  it('a stopped service: a handful of requests, then "service unreachable" at once', async () => {
    const server = await refusingServer();
    const port = portOf(server);
    await new Promise((resolve) => server.close(resolve)); // nothing listens on the port any more
    const { result, tookMs } = await pass((request) => fetch(redirected(request, port)));
    expect(sent).toBeLessThanOrEqual(3); // one call: the client's own attempts
    expect(result.stopped).toMatch(/^service unreachable: .*ECONNREFUSED/);
    expect(result.heldBack.length).toBeGreaterThan(0);
    expect(result.fetched).toBe(0);
    expect(tookMs).toBeLessThan(10_000);
  });

  it('a service answering every call after 15 s: the whole pass stops at its time limit', async () => {
    const slow: FetchLike = async (request) => {
      world.svc.clock.advance(15_000);
      return fetch(request);
    };
    const { result, tookMs } = await pass(slow);
    const jobs = result.fetched + result.failed + result.heldBack.length;
    const limit = passTimeLimitMs(jobs, 50);
    expect(result.fetched).toBeGreaterThan(0);
    expect(result.heldBack.length).toBeGreaterThan(0);
    expect(result.stopped).toMatch(/^time limit: the sync stopped after [\d.]+ min .* \d+ not synced\.$/);
    // The limit, plus at most the calls in flight when it passed (4 at a time, 15 s each).
    expect(tookMs).toBeGreaterThanOrEqual(limit);
    expect(tookMs).toBeLessThanOrEqual(limit + 60_000);
  });

  it('every answer 429 with Retry-After: 2: stops after its patience with one line naming the rate limit', async () => {
    const server = await refusingServer();
    try {
      const { result, tookMs } = await pass((request) => fetch(redirected(request, portOf(server))));
      expect(sent).toBeLessThan(GIVE_IN_AFTER);
      expect(result.fetched).toBe(0);
      expect(result.rateLimitedUntil).not.toBeNull();
      expect(result.heldBack.length).toBeGreaterThan(0);
      expect(result.stopped).toMatch(
        /^rate limited: .* \(5 min without a fetch getting through\) and asks to wait until /,
      );
      expect(result.stopped).not.toContain('\n');
      // About the patience: it stops as soon as the next hold would take it past it, or when the call in
      // flight (3 attempts, 2 s apart) ends past it.
      expect(tookMs).toBeGreaterThanOrEqual(PASS_RATE_LIMIT_PATIENCE_MS - 10_000);
      expect(tookMs).toBeLessThanOrEqual(PASS_RATE_LIMIT_PATIENCE_MS + 10_000);
    } finally {
      server.close();
    }
  });

  it('authwatch --help says when sync --once stops early and what it then says', () => {
    expect(USAGE).toMatch(/"service unreachable"/);
    expect(USAGE).toMatch(/"time limit"/);
  });
});
