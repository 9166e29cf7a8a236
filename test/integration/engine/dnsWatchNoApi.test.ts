/**
 * The DNS watch needs neither the interface nor the token: a removal in the sandbox zone raises the disconnect
 * alert from DNS while the service answers every request of the token with 429 (its budget spent by another
 * integration: the service's own per-token limit, 60 a minute), while the service cannot be reached, and
 * with the token gone from the keychain.
 *
 * The sync and the watch run side by side on one virtual clock, as they do in the app: the sync's waits
 * (Retry-After, backoff) last until the test's loop has moved the clock that far, while the watch ticks every
 * virtual second. So a sync stuck behind a 429 holds up only itself, and the measured seconds are the ones a
 * user would wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import type { SecretStore } from '../../../main/core/accounts/secretStore.ts';
import { freePort } from '../../support/freePort.ts';
import { startLiveCheckWorld, type LiveCheckWorld } from '../../support/liveCheckWorld.ts';
import { addSyncedAccount, publish, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

let live: LiveCheckWorld;
let world: EngineWorld;
let engine: TestEngine;

/** What the interface does to the engine's requests now. */
let mode: 'ok' | 'spent' | 'unreachable' = 'ok';
/** An address nothing listens on (a port we bound and released). */
let deadOrigin = '';
/** The engine's requests, and how many of them got a 2xx from the service. */
const engineRequests = { sent: 0, succeeded: 0, inFlight: 0 };
/** Requests of the token the service received (the engine's and the other integration's). */
const served = () => live.served();

// Hide the token from the engine (the keychain lost it) without touching the account.
let tokenHidden = false;
const keychain = memorySecretStore();
const secretStore: SecretStore = {
  ...keychain,
  get: async (key) => (tokenHidden ? null : keychain.get(key)),
};

// Sleeps last until the test's loop has moved the virtual clock past them.
const sleepers: { at: number; wake: () => void }[] = [];
function virtualNow(): number {
  return world.svc.clock.now().getTime();
}
const sideBySideClock = {
  now: virtualNow,
  random: () => 0.5,
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((wake, fail) => {
      const sleeper = { at: virtualNow() + Math.max(0, ms), wake };
      sleepers.push(sleeper);
      signal?.addEventListener('abort', () => {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        fail(signal.reason);
      });
    }),
};
function wakeSleepers(): void {
  for (const s of sleepers.filter((s) => s.at <= virtualNow())) {
    sleepers.splice(sleepers.indexOf(s), 1);
    s.wake();
  }
}

const engineFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  engineRequests.sent++;
  engineRequests.inFlight++;
  try {
    const target =
      mode === 'unreachable'
        ? new Request(request.url.replace(world.svc.origin, deadOrigin), request)
        : request;
    const res = await fetch(target);
    if (res.ok) engineRequests.succeeded++;
    return res;
  } finally {
    engineRequests.inFlight--;
  }
};

/** Another integration with the same token spends the minute's budget (until the service answers 429). */
async function spendBudget(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const res = await world.svc.call('GET', '/domains', { token: world.token });
    if (res.status === 429) return;
  }
  throw new Error('the service never refused: is its per-token limit on?');
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

/**
 * Runs the app for up to `seconds` of virtual time: the watch ticks every second, the sync's scheduler every
 * 10 s (a tick still running is not started twice); with `mode` 'spent', each new minute's budget is spent
 * by the other integration before the engine's requests may reach the service. Stops when `until` holds;
 * returns the virtual seconds run and the request counts at that moment (before the interface is back).
 */
async function runSideBySide(
  seconds: number,
  until: () => boolean,
): Promise<{ seconds: number; served: number; sent: number; succeeded: number }> {
  const start = virtualNow();
  let syncing: Promise<void> | null = null;
  for (let s = 1; s <= seconds; s++) {
    const nextMinute = Math.floor((virtualNow() + 1000) / 60_000) !== Math.floor(virtualNow() / 60_000);
    if (mode === 'spent' && nextMinute) {
      // Let the engine's requests in flight land in the old (spent) minute, then spend the new one first.
      while (engineRequests.inFlight > 0) await settle();
      world.svc.clock.advance(1000);
      await spendBudget();
    } else world.svc.clock.advance(1000);
    wakeSleepers();
    await live.dnsTicks.tick();
    if (s % 10 === 0 && !syncing) syncing = engine.scheduler.tick().finally(() => (syncing = null));
    await settle();
    if (until()) break;
  }
  const ran = {
    seconds: (virtualNow() - start) / 1000,
    served: served(),
    sent: engineRequests.sent,
    succeeded: engineRequests.succeeded,
  };
  // Let a sync still waiting on the clock finish (the interface is back for it), so nothing outlives the test.
  mode = 'ok';
  for (let s = 0; syncing && s < 600; s++) {
    world.svc.clock.advance(1000);
    wakeSleepers();
    await settle();
  }
  return ran;
}

function openDisconnect(fqdn: string) {
  return engine.mirror
    .listAlerts({ open: true })
    .filter((a) => a.rule === 'protocol_disconnected' && a.fqdn === fqdn);
}

beforeAll(async () => {
  deadOrigin = `http://127.0.0.1:${await freePort()}`;
  live = await startLiveCheckWorld({
    domains: ['busy.example', 'down.example', 'keyless.example'],
    service: { rateLimitPerMinute: 60 },
    dns: { ttl: 60 },
    // The side-by-side clock and the engine's fetch read the world from the start.
    prepare: async (started) => void (world = started),
    engine: { clock: sideBySideClock, fetch: engineFetch, secretStore },
    // The first sync paces itself on the clock: move it along until the sync is done.
    addAccount: async (engine, world) => {
      let added = false;
      const adding = addSyncedAccount(engine, world).finally(() => (added = true));
      while (!added) {
        world.svc.clock.advance(1000);
        wakeSleepers();
        await settle();
      }
      return adding;
    },
  });
  engine = live.engine;
  await runSideBySide(5, () => false);
}, 120_000);

afterAll(() => live?.close());

describe('the DNS watch without the interface', () => {
  it('alerts from DNS while the service answers every request of the token with 429', async () => {
    mode = 'spent';
    const before = { ...engineRequests };
    const servedBefore = served();
    await publish(world.svc, 'busy.example', 'spf', null);
    const ran = await runSideBySide(300, () => openDisconnect('busy.example').length > 0);
    const { seconds } = ran;
    console.log(`DNS watch, every API request refused (429): removal → alert in ${seconds} s (TTL 60 s)`);
    expect(openDisconnect('busy.example')).toHaveLength(1);
    expect(openDisconnect('busy.example')[0]!.body).toContain("Authwatch's own DNS watch");
    expect(seconds).toBeLessThan(120);
    // The sync kept trying and the service refused every one of its requests: the alert came from DNS alone.
    expect(ran.sent).toBeGreaterThan(before.sent);
    expect(ran.succeeded).toBe(before.succeeded);
    expect(ran.served).toBeGreaterThan(servedBefore);
  });

  it('alerts from DNS while the service cannot be reached', async () => {
    mode = 'unreachable';
    const before = { ...engineRequests };
    const servedBefore = served();
    await publish(world.svc, 'down.example', 'dmarc', null);
    const ran = await runSideBySide(300, () => openDisconnect('down.example').length > 0);
    const { seconds } = ran;
    console.log(`DNS watch, service unreachable: removal → alert in ${seconds} s (TTL 60 s)`);
    expect(openDisconnect('down.example')).toHaveLength(1);
    expect(seconds).toBeLessThan(120);
    expect(ran.sent).toBeGreaterThan(before.sent); // the sync tried, and found nobody
    expect(ran.served).toBe(servedBefore);
  });

  it('alerts from DNS with the token gone from the keychain', async () => {
    tokenHidden = true;
    const servedBefore = served();
    await publish(world.svc, 'keyless.example', 'dmarc', null);
    const ran = await runSideBySide(300, () => openDisconnect('keyless.example').length > 0);
    tokenHidden = false;
    expect(openDisconnect('keyless.example')).toHaveLength(1);
    expect(ran.seconds).toBeLessThan(120);
    expect(ran.served).toBe(servedBefore);
  });
});
