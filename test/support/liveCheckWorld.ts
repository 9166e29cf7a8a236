/**
 * The world the live-check and DNS-watch integration tests run against, started (and stopped) in one call:
 * the reference service with protected domains, a DNS server answering from its zone over real UDP/TCP (or
 * one the test brings), the reference world's HTTPS policy host and STARTTLS MX when asked (their test CA
 * given to the app as its extra CA file), and an engine over a mirror file wired to them, its DNS watch and
 * live checks on hand-driven ticks, with the world's account added and synced.
 */
import type { IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuthwatchOptions } from '../../main/core/app.ts';
import type { NetworkSettings } from '../../shared/bridge/network.ts';
import { createNetworkLayer } from '../../main/core/network/networkLayer.ts';
import { manualScheduler, type ManualScheduler } from '../../main/core/sync/scheduler.ts';
import { startZoneDnsServer } from '../../service/dns/zoneDnsServer.ts';
import { startReferenceWorld, type ReferenceWorld } from '../../service/tls/referenceWorld.ts';
import type { TlsWorld } from '../../service/tls/tlsWorld.ts';
import {
  addSyncedAccount,
  openEngine,
  startWorld,
  watchFor,
  type EngineWorld,
  type TestEngine,
} from './engineWorld.ts';
import { createManualClock } from './manualClock.ts';
import type { HarnessOptions } from './serviceHarness.ts';

/** What the engine's DNS watch asks: the zone's own server, or one a test starts. */
export interface DnsServerLike {
  port: number;
  close(): Promise<void>;
}

export interface LiveCheckWorldOptions<D extends DnsServerLike> {
  /** Domains created protected (SPF and DMARC published, scanned once). */
  domains: string[];
  /** The service's options (its clock, its per-token rate limit). */
  service?: HarnessOptions;
  /** Runs once the service is up, before any other server starts: the records they must find (MX, MTA-STS). */
  prepare?: (world: EngineWorld) => Promise<void>;
  /** The zone's DNS server answering with this TTL in seconds (default 0), or a server the test starts. */
  dns?: { ttl: number } | ((world: EngineWorld) => Promise<D>);
  /** The reference world's HTTPS policy host and/or STARTTLS MX, and the app's extra CA file trusting them. */
  tls?: { https?: boolean; smtp?: boolean };
  /** What Settings → Network says (a proxy); with `tls` only. */
  networkSettings?: () => NetworkSettings;
  /** The app runs the live checks (these, or all of them) on `liveTicks`; without, it runs none. */
  liveChecks?: { checks?: NonNullable<AuthwatchOptions['liveChecks']>['checks'] };
  /** Further engine options (its clock, fetch, secret store). */
  engine?: Partial<AuthwatchOptions>;
  /** Adds the world's account and syncs it (default addSyncedAccount); the account's id. */
  addAccount?: (engine: TestEngine, world: EngineWorld) => Promise<number>;
}

export interface LiveCheckWorld<D extends DnsServerLike = DnsServerLike> {
  world: EngineWorld;
  /** The DNS server the engine asks; a test that restarts it puts the new one here, so close() stops it. */
  dns: D;
  /** The reference world's TLS servers; null without `tls`. */
  ref: ReferenceWorld | null;
  /** The app's extra CA file (the reference world's root); null without `tls`. */
  caFile: string | null;
  /** The engine now running (reopenEngine replaces it). */
  engine: TestEngine;
  accountId: number;
  /** The DNS watch's and the live checks' ticks. */
  dnsTicks: ManualScheduler;
  liveTicks: ManualScheduler;
  /** Requests of the interface the service received so far (sandbox controls aside). */
  served(): number;
  /** One DNS watch tick per (virtual) second, for `seconds` or until `until` holds; the seconds it ran. */
  watchFor(seconds: number, until?: () => boolean): Promise<number>;
  /** Closes the engine and opens another on the same mirror, wired alike but asking `dnsServers` (none: the settings'). */
  reopenEngine(dnsServers?: string[]): Promise<TestEngine>;
  close(): Promise<void>;
}

/** Starts the world `options` describe; on a failure part-way, stops what had started. */
export async function startLiveCheckWorld<D extends DnsServerLike = DnsServerLike>(
  options: LiveCheckWorldOptions<D>,
): Promise<LiveCheckWorld<D>> {
  const stops: (() => Promise<void> | void)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    return await start(options, stops, stopAll);
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function start<D extends DnsServerLike>(
  options: LiveCheckWorldOptions<D>,
  stops: (() => Promise<void> | void)[],
  stopAll: () => Promise<void>,
): Promise<LiveCheckWorld<D>> {
  // The sandbox's TLS controls reach the reference world through this, filled in once it has started.
  const tlsControls = { address: '127.0.0.1' } as {
    tlsWorld: TlsWorld;
    address: string;
    smtp?: { offerStarttls(on: boolean): void };
  };
  const service: HarnessOptions = options.tls
    ? // Certificates are judged against the real time by TLS itself, so the world's clock starts at it.
      { clock: createManualClock(new Date()), tlsWorld: tlsControls, ...options.service }
    : { ...options.service };
  const world = await startWorld(options.domains, service);
  stops.push(() => world.close());
  let served = 0;
  world.svc.app.server.on('request', (req: IncomingMessage) => {
    if (!req.url?.startsWith('/_sandbox')) served++;
  });
  await options.prepare?.(world);

  let ref: ReferenceWorld | null = null;
  let caFile: string | null = null;
  if (options.tls) {
    const caDir = mkdtempSync(join(tmpdir(), 'authwatch-live-'));
    stops.push(() => rmSync(caDir, { recursive: true, force: true }));
    caFile = join(caDir, 'ca.pem');
    const started = await startReferenceWorld({
      db: world.svc.db,
      ...(options.tls.https ? { httpsPort: 0 } : {}),
      ...(options.tls.smtp ? { smtpPort: 0 } : {}),
      caFile,
    });
    ref = started;
    stops.push(() => started.close());
    tlsControls.tlsWorld = started.tlsWorld;
    if (started.smtp) tlsControls.smtp = started.smtp;
  }

  const dnsOption = options.dns ?? { ttl: 0 };
  const dns =
    typeof dnsOption === 'function'
      ? await dnsOption(world)
      : ((await startZoneDnsServer({ db: world.svc.db, port: 0, ttl: dnsOption.ttl })) as DnsServerLike as D);
  const live = { dns };
  stops.push(() => live.dns.close());

  const network = caFile
    ? createNetworkLayer({
        env: {},
        caFile: { path: caFile, from: '--ca-file' },
        ...(options.networkSettings ? { settings: options.networkSettings } : {}),
      })
    : null;
  const dnsTicks = manualScheduler();
  const liveTicks = manualScheduler();
  const wired = (dnsServers: string[] | undefined) =>
    openEngine(world, {
      ...(network ? { network } : {}),
      dnsWatch: { ...(dnsServers ? { servers: dnsServers } : {}), scheduler: dnsTicks },
      ...(options.liveChecks ? { liveChecks: { ...options.liveChecks, scheduler: liveTicks } } : {}),
      ...options.engine,
    });
  let engine = wired([`127.0.0.1:${dns.port}`]);
  // Ahead of the servers it asks: the engine stops first.
  stops.push(() => engine.close());
  const accountId = await (options.addAccount ?? addSyncedAccount)(engine, world);
  if (ref) {
    await engine.app.updateLiveChecks({
      ...(ref.https ? { httpsPort: ref.https.port } : {}),
      ...(ref.smtp ? { smtpPort: ref.smtp.port } : {}),
      timeoutMs: 3000,
    });
  }

  return {
    world,
    get dns() {
      return live.dns;
    },
    set dns(server: D) {
      live.dns = server;
    },
    ref,
    caFile,
    get engine() {
      return engine;
    },
    accountId,
    dnsTicks,
    liveTicks,
    served: () => served,
    watchFor: (seconds, until) => watchFor(world, dnsTicks, seconds, until),
    async reopenEngine(dnsServers) {
      await engine.close();
      engine = wired(dnsServers);
      return engine;
    },
    close: stopAll,
  };
}
