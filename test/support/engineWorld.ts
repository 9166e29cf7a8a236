/**
 * Shared set-up of the integration tests that drive the engine (engine, CLI, network, build, and the live
 * checks' world): a reference service over real HTTP on 127.0.0.1 with domains whose DNS the sandbox
 * publishes, and facades over a mirror FILE that run on the service's manual clock. Sleeping advances that
 * clock ("virtual time"), so rate-limit waits cost no real time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memorySecretStore } from '../../main/core/accounts/memorySecretStore.ts';
import type { SecretStore } from '../../main/core/accounts/secretStore.ts';
import {
  createAuthwatch,
  type Authwatch,
  type AuthwatchEvent,
  type AuthwatchOptions,
} from '../../main/core/app.ts';
import { openMirror } from './openMirror.ts';
import type { Alert, Mirror } from '../../main/core/mirror/types.ts';
import { manualScheduler, type ManualScheduler } from '../../main/core/sync/scheduler.ts';
import { startService, type HarnessOptions, type ServiceHarness } from './serviceHarness.ts';

/** Scopes a read-and-edit token carries. */
export const FULL_SCOPES = ['account:read', 'me:read', 'domains:read', 'domains:write'];

/** A started service with domains whose SPF and DMARC are published and scanned. */
export interface EngineWorld {
  svc: ServiceHarness;
  token: string;
  tokenId: number;
  domainIds: Record<string, number>;
  dir: string;
  close(): Promise<void>;
}

/** Starts the service and creates `fqdns` as protected domains (SPF + DMARC published, one scan). */
export async function startWorld(fqdns: string[], options: HarnessOptions = {}): Promise<EngineWorld> {
  const svc = await startService(options);
  const { token, id } = await svc.createToken(FULL_SCOPES);
  const domainIds: Record<string, number> = {};
  for (const fqdn of fqdns) {
    const res = await svc.call('POST', '/domains', { token, body: { fqdn } });
    if (res.status !== 201)
      throw new Error(`cannot create ${fqdn}: ${res.status} ${JSON.stringify(res.body)}`);
    domainIds[fqdn] = res.body.data.id as number;
    await publish(svc, fqdn, 'spf', 'v=spf1 ip4:192.0.2.0/24 -all');
    await publish(svc, fqdn, 'dmarc', 'v=DMARC1; p=reject; rua=mailto:dmarc@example.net');
  }
  await scan(svc);
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-engine-'));
  return {
    svc,
    token,
    tokenId: id,
    domainIds,
    dir,
    async close() {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Publishes (or with null removes) a record in the sandbox zone. */
export async function publish(
  svc: ServiceHarness,
  fqdn: string,
  type: string,
  value: string | null,
): Promise<void> {
  const res = await svc.sandbox('PUT', `/dns/${fqdn}/${type}`, { value });
  if (res.status !== 200)
    throw new Error(`sandbox dns ${fqdn}/${type}: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Sets up hosted MTA-STS for `fqdn` with an enforce policy naming `mx` (a week's max_age), its _mta-sts
 * record delegated to the service, so the policy host serves it.
 */
export async function enforceMtaSts(world: EngineWorld, fqdn: string, mx: string[]): Promise<void> {
  const { svc, token } = world;
  const id = world.domainIds[fqdn]!;
  const steps = [
    () => svc.call('POST', `/domains/${id}/mta-sts/setup`, { token }),
    () =>
      svc.call('PATCH', `/domains/${id}/mta-sts/policy`, {
        token,
        body: { mode: 'enforce', max_age: 604800, mx },
      }),
    () => svc.sandbox('PUT', `/delegations/${fqdn}/mta_sts`, { delegated: true }),
  ];
  for (const step of steps) {
    const res = await step();
    if (res.status !== 200) throw new Error(`MTA-STS of ${fqdn}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** Runs the service's guard scan of every domain now. */
export async function scan(svc: ServiceHarness): Promise<void> {
  const res = await svc.sandbox('POST', '/scan', {});
  if (res.status !== 200) throw new Error(`sandbox scan: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A notifier that remembers what it was asked to show. */
export function recordingNotifier() {
  const notified: Alert[] = [];
  return { channel: 'test', notified, notify: (alert: Alert) => void notified.push(alert) };
}

/** A facade over a mirror file, on the service's clock, with a hand-driven scheduler. */
export interface TestEngine {
  app: Authwatch;
  mirror: Mirror;
  scheduler: ManualScheduler;
  events: AuthwatchEvent[];
  notifier: ReturnType<typeof recordingNotifier>;
  /** Runs the scheduler as production does, one tick per 10 s of (virtual) time, for `ms`. */
  runFor(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Opens (or reopens) the mirror file and a facade over it; `start()` is called so ticks run. */
export function openEngine(
  world: EngineWorld,
  options: { file?: string; secretStore?: SecretStore } & Partial<AuthwatchOptions> = {},
): TestEngine {
  const { svc } = world;
  const clock = {
    now: () => svc.clock.now().getTime(),
    sleep: async (ms: number) => {
      svc.clock.advance(Math.max(0, ms));
    },
    random: () => 0.5,
  };
  const mirror = openMirror(options.file ?? join(world.dir, 'mirror.db'), { clock });
  const scheduler = manualScheduler();
  const notifier = recordingNotifier();
  const events: AuthwatchEvent[] = [];
  const app = createAuthwatch({
    mirror,
    secretStore: options.secretStore ?? memorySecretStore(),
    clock,
    scheduler,
    notifier,
    ...options,
  });
  app.on((event) => events.push(event));
  app.start();
  return {
    app,
    mirror,
    scheduler,
    events,
    notifier,
    async runFor(ms) {
      for (let t = 0; t < ms; t += 10_000) {
        svc.clock.advance(10_000);
        await scheduler.tick();
      }
    },
    async close() {
      await app.stop();
      mirror.close();
    },
  };
}

/**
 * One DNS watch tick per second of the service's (virtual) clock, for `seconds`; `until` stops early. The
 * seconds it ran.
 */
export async function watchFor(
  world: EngineWorld,
  ticks: ManualScheduler,
  seconds: number,
  until?: () => boolean,
): Promise<number> {
  const start = world.svc.clock.now().getTime();
  for (let s = 0; s < seconds; s++) {
    world.svc.clock.advance(1000);
    await ticks.tick();
    if (until?.()) break;
  }
  return (world.svc.clock.now().getTime() - start) / 1000;
}

/** Adds the world's account (label Acme, the world's token) to the engine and syncs it once; its id. */
export async function addSyncedAccount(engine: TestEngine, world: EngineWorld): Promise<number> {
  const { account } = await engine.app.addAccount({
    label: 'Acme',
    baseUrl: world.svc.baseUrl,
    token: world.token,
  });
  await engine.app.syncNow({ accountId: account.id });
  return account.id;
}
