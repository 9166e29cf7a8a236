/**
 * The world of one e2e file: the reference service with the demo portfolio (in process, on the real clock,
 * over real HTTP on 127.0.0.1), the app served by the browser host on a fresh mirror file, and one
 * Chromium. The demo's first sync is about 155 requests: the service's per-token limit and the app's own
 * budget are raised so it takes seconds, not the two and a half minutes of the real 60-a-minute limit.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import type { DnsWatchOptions } from '../../../main/core/dnswatch/dnsWatchRuntime.ts';
import { runHost, type HostRun, type HostRunOptions } from '../../../main/host/run.ts';
import { ALL_V1_SCOPE_IDS } from '../../../service/auth/scopes.ts';
import { buildService } from '../../../service/app.ts';
import { openServiceDb } from '../../../service/db/openServiceDb.ts';
import { startZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { startReferenceWorld, type ReferenceWorld } from '../../../service/tls/referenceWorld.ts';

/** The app's budget for tests: fast enough for the demo's first sync in a few seconds. */
export const FAST_SYNC = { ratePerMinute: 6000, headroom: 6 };

/** The sandbox key the e2e service runs with. */
const SANDBOX_KEY = 'e2e-sandbox-key';

/** A running reference service with the demo portfolio. */
export interface DemoService {
  baseUrl: string;
  origin: string;
  /** A token of the demo owner with every v1 scope. */
  token: string;
  /** The sandbox zone over real DNS on 127.0.0.1 (`HOST:PORT`), when started with `dnsTtl`. */
  dns: string | null;
  /** The reference world's TLS side (started with `tls`) and its CA file. */
  tls: { world: ReferenceWorld; caFile: string } | null;
  stopped: boolean;
  /** Calls a sandbox control (README "Sandbox controls"); throws unless it answers 2xx. */
  sandbox(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Removes (null) or publishes a record in the sandbox zone. */
  setRecord(fqdn: string, type: string, value: string | null): Promise<void>;
  /** Runs the guard scan of every domain now. */
  scan(): Promise<void>;
  /** Stops the service (offline review); idempotent. */
  stop(): Promise<void>;
}

/** What else the service serves. */
export interface DemoServiceOptions {
  /** Serve the sandbox zone over DNS on a free 127.0.0.1 port with this TTL (seconds), as `--dns-port 0`. */
  dnsTtl?: number;
  /** Serve the reference world's MTA-STS over HTTPS and its MX with STARTTLS (`--https-port 0 --smtp-port 0`). */
  tls?: boolean;
}

/**
 * Starts the reference service on a copy of the run's seeded demo database (globalSetup), on the real
 * clock, with per-token and per-IP limits raised so the app's fast budget is not refused.
 */
export async function startDemoService(
  seedDb: string,
  options: DemoServiceOptions = {},
): Promise<DemoService> {
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-e2e-service-'));
  const file = join(dir, 'service.sqlite');
  copyFileSync(seedDb, file);
  const db = openServiceDb(file);
  const tls = options.tls
    ? await startReferenceWorld({ db, httpsPort: 0, smtpPort: 0, caFile: join(dir, 'ca.pem') })
    : null;
  const app = buildService({
    db,
    ...(tls ? { tlsWorld: { tlsWorld: tls.tlsWorld, address: tls.address } } : {}),
    sandboxKey: SANDBOX_KEY,
    rateLimitPerMinute: 100_000,
    publicRateLimitPerMinute: 100_000,
    logger: false,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('the service did not bind');
  const origin = `http://127.0.0.1:${address.port}`;
  const zone =
    options.dnsTtl === undefined
      ? null
      : await startZoneDnsServer({ db, host: '127.0.0.1', port: 0, ttl: options.dnsTtl });

  const sandbox = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${origin}/_sandbox${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'x-sandbox-key': SANDBOX_KEY,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const created = (await sandbox('POST', '/tokens', { scopes: [...ALL_V1_SCOPE_IDS], name: 'e2e' })) as {
    data: { plain_text: string };
  };
  const service: DemoService = {
    baseUrl: `${origin}/api/v1`,
    origin,
    token: created.data.plain_text,
    dns: zone ? `127.0.0.1:${zone.port}` : null,
    tls: tls ? { world: tls, caFile: join(dir, 'ca.pem') } : null,
    stopped: false,
    sandbox,
    async setRecord(fqdn, type, value) {
      await sandbox('PUT', `/dns/${fqdn}/${type}`, { value });
    },
    async scan() {
      await sandbox('POST', '/scan', {});
    },
    async stop() {
      if (service.stopped) return;
      service.stopped = true;
      await zone?.close();
      await tls?.close();
      await app.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return service;
}

/** The app served by the browser host on a fresh mirror in a temporary folder. */
export interface AppUnderTest {
  run: HostRun;
  dir: string;
  close(): Promise<void>;
}

/**
 * Starts the browser host on a fresh mirror file, with a memory secret store and the fast budget; with
 * `dnsWatch`, its DNS watch runs (its servers must be on 127.0.0.1).
 */
export async function startApp(
  rendererDir: string,
  options: {
    db?: string;
    dnsWatch?: DnsWatchOptions;
    liveChecks?: boolean;
    groupWaitMs?: number;
    clock?: HostRunOptions['clock'];
  } = {},
): Promise<AppUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-e2e-'));
  const logs: string[] = [];
  const run = await runHost({
    db: options.db ?? join(dir, 'mirror.db'),
    rendererDir,
    secretStore: memorySecretStore(),
    say: (line) => logs.push(line),
    ...(options.dnsWatch ? { dnsWatch: options.dnsWatch } : {}),
    ...(options.liveChecks ? { liveChecks: {} } : {}),
    ...(options.groupWaitMs === undefined ? {} : { groupWaitMs: options.groupWaitMs }),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await run.app.updateSettings({ sync: FAST_SYNC });
  return {
    run,
    dir,
    async close() {
      await run.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Service + app with the demo account added and its first sync done. */
export interface DemoWorld {
  service: DemoService;
  app: AppUnderTest;
  accountId: number;
  close(): Promise<void>;
}

/** The label the demo account is added under. */
export const DEMO_LABEL = 'Acme Corp (demo)';

/** The DNS side of a world: the service's zone over DNS and the app's watch asking it. */
export interface WorldDns {
  /** TTL of the zone's answers (seconds). */
  ttl: number;
  /** When the watch takes an answer as evidence (default: the app's). */
  confirm?: DnsWatchOptions['confirm'];
  /** The resolvers the watch asks instead of the zone (`HOST:PORT` on 127.0.0.1: e.g. one that lies). */
  servers?: string[];
  /** Also the reference world's TLS side and the app's live checks against it (every check run once). */
  live?: boolean;
}

/**
 * Starts the service and the app, adds the demo account and runs its first sync to the end. With `dns`,
 * the service serves its zone over DNS on 127.0.0.1, the app's DNS watch asks only it, re-asks a record
 * after its TTL (the watch's floor set to it) and has answered every record once.
 */
export async function startDemoWorld(
  seedDb: string,
  rendererDir: string,
  options: { dns?: WorldDns; groupWaitMs?: number; clock?: HostRunOptions['clock'] } = {},
): Promise<DemoWorld> {
  const service = await startDemoService(
    seedDb,
    options.dns ? { dnsTtl: options.dns.ttl, ...(options.dns.live ? { tls: true } : {}) } : {},
  );
  const app = await startApp(rendererDir, {
    ...(service.dns
      ? {
          dnsWatch: {
            servers: options.dns?.servers ?? [service.dns],
            ...(options.dns?.confirm ? { confirm: options.dns.confirm } : {}),
          },
          ...(options.dns?.live ? { liveChecks: true } : {}),
        }
      : {}),
    ...(options.groupWaitMs === undefined ? {} : { groupWaitMs: options.groupWaitMs }),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const { account } = await app.run.app.addAccount({
    label: DEMO_LABEL,
    baseUrl: service.baseUrl,
    token: service.token,
  });
  await syncFully(app, account.id);
  if (options.dns) {
    // The app's floor would otherwise keep each answer a minute; the watch has answered every record once.
    await app.run.app.updateDnsWatch({
      floorSeconds: options.dns.ttl,
      ceilingSeconds: Math.max(options.dns.ttl, 60),
    });
    await app.run.app.checkDnsOnce();
  }
  if (service.tls) {
    const { world, caFile } = service.tls;
    await app.run.app.updateLiveChecks({
      httpsPort: world.https!.port,
      smtpPort: world.smtp!.port,
      extraCaFile: caFile,
    });
  }
  return {
    service,
    app,
    accountId: account.id,
    async close() {
      await app.close();
      await service.stop();
    },
  };
}

/** Runs manual syncs until one fails nothing (the first may hand some signals to the next). */
export async function syncFully(app: AppUnderTest, accountId: number): Promise<void> {
  for (let pass = 0; pass < 3; pass++) {
    const [result] = await app.run.app.syncNow({ accountId });
    if (result && result.failed === 0) return;
  }
  const status = await app.run.app.syncStatus();
  throw new Error(`the demo's first sync did not finish cleanly: ${JSON.stringify(status)}`);
}

/** A second account in the app: a demo team member's token (sandbox-issued), not the owner's. */
export interface MemberAccount {
  accountId: number;
  userId: number;
  /** The service's id of the member's token (the audit log's token_id). */
  tokenId: number;
  scopes: string[];
}

/**
 * Adds the demo member with `email` as another account of the app, with a token of `scopes` issued by the
 * sandbox (the API lets a user create tokens only for themselves). The owner-only forms are the service's
 * rule for this account's calls; a scope left out is one the app must name as missing.
 */
export async function addMemberAccount(
  world: DemoWorld,
  options: { label: string; email: string; scopes: readonly string[] },
): Promise<MemberAccount> {
  const res = await fetch(`${world.service.baseUrl}/users?limit=100`, {
    headers: { accept: 'application/json', 'x-api-token': world.service.token },
  });
  const users = ((await res.json()) as { data: { id: number; email: string; is_owner?: boolean }[] }).data;
  const user = users.find((u) => u.email === options.email);
  if (!user) throw new Error(`${options.email} is not a user of the demo team`);
  const issued = (await world.service.sandbox('POST', '/tokens', {
    user_id: user.id,
    scopes: [...options.scopes],
    name: `e2e ${options.label}`,
  })) as { data: { token_id: number; plain_text: string } };
  const { account } = await world.app.run.app.addAccount({
    label: options.label,
    baseUrl: world.service.baseUrl,
    token: issued.data.plain_text,
  });
  return {
    accountId: account.id,
    userId: user.id,
    tokenId: issued.data.token_id,
    scopes: [...options.scopes],
  };
}
