/**
 * The runner's pace: a tick starts at most a kind's `perTick` probes, and each slot is taken again as soon as
 * its probe ends — the round of a kind does not wait for the next five-second tick to refill its slots
 * (5,000 domains at 32 blocklist probes a tick was a 13-minute round, most of it idle).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { liveCheck, type LiveCheckDefinition } from '../../../../main/core/livechecks/definition.ts';
import { LiveCheckRunner } from '../../../../main/core/livechecks/liveCheckRunner.ts';
import { DEFAULT_LIVE_CHECK_SETTINGS } from '../../../../main/core/livechecks/liveCheckSettings.ts';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { systemClock } from '../../../../shared/api/clock.ts';

const DOMAINS = 60;
let mirror: Mirror;
let inFlight = 0;
let most = 0;

/** A check whose probe takes 5 ms of real time, at most 4 in flight and 4 started by a tick. */
const quick = liveCheck('quick_probe', {
  words: 'a quick probe',
  per: 'domain',
  cadence: { periodSeconds: 3600, retrySeconds: 600 },
  caps: { concurrency: 4, perTick: 4 },
  settingsKey: 'quickProbe',
  uses: [],
  result: z.object({ ok: z.boolean() }),
  async probe() {
    most = Math.max(most, ++inFlight);
    await sleep(5);
    inFlight--;
    return { status: 'checked', result: { ok: true } };
  },
  shown: { label: 'Quick', text: () => 'fine', problems: () => [] },
});

function runner(): LiveCheckRunner {
  return new LiveCheckRunner({
    mirror,
    clock: systemClock,
    // The registry holds checks of every result type; this one's is its own.
    checks: [quick as unknown as LiveCheckDefinition],
    settings: DEFAULT_LIVE_CHECK_SETTINGS,
    resolver: null,
    dnsTrusted: () => true,
    ca: undefined,
    afterWrite: async () => {},
  });
}

beforeEach(() => {
  mirror = openMirror(':memory:', { clock: systemClock });
  const account = mirror.upsertAccount({ label: 'A', baseUrl: 'https://api.example.test/api/v1' });
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: Array.from({ length: DOMAINS }, (_, i) => ({ id: i + 1, fqdn: `d${i}.example` })),
    fetchedAt: Date.now(),
  });
  inFlight = 0;
  most = 0;
});
afterEach(() => mirror.close());

describe('the live check runner’s pace', () => {
  it('checks every due domain after one tick, its slots refilled as probes end, never over the cap', async () => {
    const r = runner();
    r.tick();
    expect(r.stats().inFlight).toBe(4);
    await r.idle();
    expect(mirror.allLiveChecks().filter((row) => row.status === 'ok')).toHaveLength(DOMAINS);
    expect(most).toBe(4);
  });

  it('starts nothing more once halted (a runner replaced by new settings)', async () => {
    const r = runner();
    r.tick();
    r.halt();
    await r.idle();
    expect(mirror.allLiveChecks()).toHaveLength(4);
    r.tick();
    expect(r.stats().inFlight).toBe(0);
  });

  it('checks every domain in a round, never more than the kind’s cap in flight', async () => {
    const r = runner();
    expect(await r.round()).toBe(DOMAINS);
    expect(mirror.allLiveChecks()).toHaveLength(DOMAINS);
    expect(most).toBe(4);
  });
});
