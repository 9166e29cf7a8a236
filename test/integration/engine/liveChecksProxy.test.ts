/**
 * The live MTA-STS fetch behind a company proxy (Settings → Network): it goes through Debian's tinyproxy as a
 * CONNECT tunnel, the certificate still judged end to end for the policy host (the origin's, from the world's
 * test CA given as the extra CA file); a proxy that is down is the network's trouble — one notice, no domain
 * alert; and SMTP to the MX hosts never goes through the proxy (HTTP proxies do not carry port 25).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NETWORK_SETTINGS, type NetworkSettings } from '../../../shared/bridge/network.ts';
import { createNetworkLayer } from '../../../main/core/network/networkLayer.ts';
import { LIVE_CHECK_NOTICES_KEY } from '../../../main/core/livechecks/liveCheckSettings.ts';
import { manualScheduler } from '../../../main/core/sync/scheduler.ts';
import { startZoneDnsServer, type ZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { startReferenceWorld, type ReferenceWorld } from '../../../service/tls/referenceWorld.ts';
import { createManualClock } from '../../support/manualClock.ts';
import { startTinyproxy, type Tinyproxy } from '../../support/tinyproxy.ts';
import {
  addSyncedAccount,
  openEngine,
  publish,
  startWorld,
  type EngineWorld,
  type TestEngine,
} from './engineFixture.ts';

const FQDN = 'proxied.example';
let world: EngineWorld;
let dns: ZoneDnsServer;
let ref: ReferenceWorld;
let engine: TestEngine;
let proxy: Tinyproxy;
let caDir: string;
let accountId: number;
let network: NetworkSettings;

const row = (check: string) => engine.mirror.liveCheck(check, accountId, world.domainIds[FQDN]!)!;

beforeAll(async () => {
  world = await startWorld([FQDN], { clock: createManualClock(new Date()) });
  const id = world.domainIds[FQDN]!;
  await publish(world.svc, FQDN, 'mx', '10 mx1.proxied.example');
  expect((await world.svc.call('POST', `/domains/${id}/mta-sts/setup`, { token: world.token })).status).toBe(
    200,
  );
  const policy = await world.svc.call('PATCH', `/domains/${id}/mta-sts/policy`, {
    token: world.token,
    body: { mode: 'enforce', max_age: 604800, mx: ['mx1.proxied.example'] },
  });
  expect(policy.status).toBe(200);
  await world.svc.sandbox('PUT', `/delegations/${FQDN}/mta_sts`, { delegated: true });
  caDir = mkdtempSync(join(tmpdir(), 'authwatch-live-proxy-'));
  const caFile = join(caDir, 'ca.pem');
  ref = await startReferenceWorld({ db: world.svc.db, httpsPort: 0, smtpPort: 0, caFile });
  dns = await startZoneDnsServer({ db: world.svc.db, port: 0, ttl: 0 });
  proxy = await startTinyproxy();
  // The API itself is reached direct (its loopback address bypassed), as a company's internal service is.
  network = { ...DEFAULT_NETWORK_SETTINGS, proxy: 'manual', proxyUrl: proxy.url, bypass: '127.0.0.1' };
  engine = openEngine(world, {
    network: createNetworkLayer({
      env: {},
      caFile: { path: caFile, from: '--ca-file' },
      settings: () => network,
    }),
    dnsWatch: { servers: [`127.0.0.1:${dns.port}`], scheduler: manualScheduler() },
    liveChecks: { scheduler: manualScheduler() },
  });
  accountId = await addSyncedAccount(engine, world);
  await engine.app.updateLiveChecks({
    httpsPort: ref.https!.port,
    smtpPort: ref.smtp!.port,
    timeoutMs: 3000,
  });
}, 60_000);

afterAll(async () => {
  await engine?.close();
  await Promise.all([ref?.close(), dns?.close(), proxy?.close()]);
  await world?.close();
  if (caDir) rmSync(caDir, { recursive: true, force: true });
});

describe('the live MTA-STS fetch behind a company proxy', () => {
  it('reads the policy through a CONNECT tunnel, the certificate judged for the policy host', async () => {
    const served = ref.https!.requests();
    await engine.app.checkLiveOnce();
    expect(proxy.seen()).toContain(`127.0.0.1:${ref.https!.port}`);
    expect(ref.https!.requests()).toBe(served + 1);
    const sts = row('mta_sts_live');
    expect(sts).toMatchObject({ status: 'ok' });
    expect(sts.words).toMatch(/mode enforce/);
    const result = sts.result as { certificate: { valid: boolean; subject: string } };
    expect(result.certificate.valid).toBe(true);
    expect(result.certificate.subject).toMatch(`mta-sts.${FQDN}`);
  });

  it('never sends SMTP through the proxy', async () => {
    const tls = ref.smtp!.counts().tls;
    await engine.app.checkLiveOnce();
    expect(ref.smtp!.counts().tls).toBeGreaterThan(tls);
    expect(proxy.seen()).not.toContain(`127.0.0.1:${ref.smtp!.port}`);
    expect(row('mx_starttls')).toMatchObject({ status: 'ok' });
  });

  it('says a proxy that is down once, as a notice, and raises no domain alert', async () => {
    const dead = await startTinyproxy();
    const url = dead.url;
    await dead.close();
    network = { ...network, proxyUrl: url };
    await engine.app.checkLiveOnce();
    expect(await engine.app.listAlerts({ accountId, open: true })).toEqual([]);
    expect(row('mta_sts_live').status).toBe('unknown');
    const notices = engine.mirror.getSetting(LIVE_CHECK_NOTICES_KEY) as Record<string, { words: string }>;
    expect(notices.mta_sts_live?.words).toMatch(/the proxy 127\.0\.0\.1:\d+ cannot be reached/);
    network = { ...network, proxyUrl: proxy.url };
    await engine.app.checkLiveOnce();
    expect(row('mta_sts_live').status).toBe('ok');
    expect(engine.mirror.getSetting(LIVE_CHECK_NOTICES_KEY)).toEqual({});
  });
});
