import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USAGE } from '../../../main/cli/args.ts';
import { PASS_RATE_LIMIT_PATIENCE_MS } from '../../../main/core/sync/failurePolicy.ts';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

/** Refusals before the stand-in lets calls through again, so that a pass without a bound still ends. */
const GIVE_IN_AFTER = 400;

describe('a one-shot sync against a server that answers every call 429 without Retry-After', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  let refusing = false;
  let refused = 0;

  beforeAll(async () => {
    world = await startWorld(['limited.example']);
    const refuse: FetchLike = async (request) => {
      if (!refusing || refused >= GIVE_IN_AFTER) return fetch(request);
      refused += 1;
      const body = {
        error: { code: 'http_error', message: 'Too many requests.', request_id: `r${refused}` },
      };
      return new Response(JSON.stringify(body), {
        status: 429,
        headers: { 'content-type': 'application/json', 'x-request-id': `r${refused}` },
      });
    };
    engine = openEngine(world, { fetch: refuse });
  });
  afterAll(async () => {
    await engine?.close();
    await world?.close();
  });

  it('gives up after its bounded patience and reports rate limiting', async () => {
    const { account } = await engine.app.addAccount({
      label: 'Limited',
      baseUrl: world.svc.baseUrl,
      token: world.token,
    });
    refusing = true;
    const started = world.svc.clock.now().getTime();
    const [result] = await engine.app.syncNow({ accountId: account.id });
    const waited = world.svc.clock.now().getTime() - started;

    expect(refused).toBeLessThan(GIVE_IN_AFTER);
    expect(result!.rateLimitedUntil).not.toBeNull();
    expect(result!.fetched).toBe(0);
    // Nothing was synced, and the pass says what it did not get to.
    expect(result!.heldBack.map((j) => j.signal)).toContain('domains');
    // Bounded: the patience, plus at most the one call in flight when it ran out (the client may wait for
    // its budget and retry once or twice on its own).
    expect(waited).toBeLessThanOrEqual(PASS_RATE_LIMIT_PATIENCE_MS + 60_000);
    expect(waited).toBeGreaterThan(0);
  });

  it('authwatch --help says how long sync --once waits and what it then says', () => {
    const minutes = PASS_RATE_LIMIT_PATIENCE_MS / 60_000;
    expect(USAGE).toMatch(new RegExp(`--once waits out rate limiting \\(429\\) for at most ${minutes} min`));
    expect(USAGE).toMatch(/exits 1 "rate limited"/);
  });
});
