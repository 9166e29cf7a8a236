/**
 * The live MTA-STS fetch behind a company proxy (Settings → Network): it goes through Debian's tinyproxy as a
 * CONNECT tunnel, the certificate still judged end to end for the policy host (the origin's, from the world's
 * test CA given as the extra CA file); a proxy that is down is the network's trouble — one notice, no domain
 * alert; and SMTP to the MX hosts never goes through the proxy (HTTP proxies do not carry port 25).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NETWORK_SETTINGS, type NetworkSettings } from '../../../shared/bridge/network.ts';
import { LIVE_CHECK_NOTICES_KEY } from '../../../main/core/livechecks/liveCheckSettings.ts';
import { startLiveCheckWorld, type LiveCheckWorld } from '../../support/liveCheckWorld.ts';
import { startTinyproxy, type Tinyproxy } from '../../support/tinyproxy.ts';
import { enforceMtaSts, publish, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

const FQDN = 'proxied.example';
let live: LiveCheckWorld;
let world: EngineWorld;
let ref: NonNullable<LiveCheckWorld['ref']>;
let engine: TestEngine;
let proxy: Tinyproxy;
let accountId: number;
let network: NetworkSettings;

const row = (check: string) => engine.mirror.liveCheck(check, accountId, world.domainIds[FQDN]!)!;

beforeAll(async () => {
  proxy = await startTinyproxy();
  // The API itself is reached direct (its loopback address bypassed), as a company's internal service is.
  network = { ...DEFAULT_NETWORK_SETTINGS, proxy: 'manual', proxyUrl: proxy.url, bypass: '127.0.0.1' };
  live = await startLiveCheckWorld({
    domains: [FQDN],
    prepare: async (world) => {
      await publish(world.svc, FQDN, 'mx', '10 mx1.proxied.example');
      await enforceMtaSts(world, FQDN, ['mx1.proxied.example']);
    },
    tls: { https: true, smtp: true },
    networkSettings: () => network,
    liveChecks: {},
  });
  ({ world, engine, accountId } = live);
  ref = live.ref!;
}, 60_000);

afterAll(async () => {
  await live?.close();
  await proxy?.close();
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
