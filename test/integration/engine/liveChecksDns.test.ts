/**
 * The SPF, blocklist and token-expiry live checks end to end: the reference service's DNS over real UDP/TCP,
 * the runner the app runs, alerts in the mirror. Each alert is raised and resolved by a change in the world
 * (a vendor's include grows past 10 lookups, an MX address is listed and delisted); a resolver that stops
 * answering raises and resolves nothing; and no live check sends the service a single API request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveCheckRuntime } from '../../../main/core/livechecks/liveCheckRuntime.ts';
import { LIVE_CHECKS } from '../../../main/core/livechecks/registry.ts';
import { LIVE_CHECK_SETTINGS_KEY } from '../../../main/core/livechecks/liveCheckSettings.ts';
import { TEST_DNSBL_ZONE } from '../../../service/dns/testDnsbl.ts';
import { startZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { startLiveCheckWorld, type LiveCheckWorld } from '../../support/liveCheckWorld.ts';
import { publish, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

const FQDN = 'spf-live.example';
const MX_IP = '192.0.2.25';
let live: LiveCheckWorld;
let world: EngineWorld;
let engine: TestEngine;
let runtime: LiveCheckRuntime;
let dnsPort = 0;
/** API requests the service received since the world was set up (sandbox controls excluded). */
let servedAtStart = 0;
const served = () => live.served() - servedAtStart;

function openAlerts(rule?: string) {
  return engine.mirror.listAlerts({ open: true }).filter((a) => !rule || a.rule === rule);
}

/** One round of the checks after the resolver's cache has aged out (its answers live 60 s here). */
async function round(): Promise<void> {
  world.svc.clock.advance(120_000);
  await runtime.round();
}

beforeAll(async () => {
  live = await startLiveCheckWorld({
    domains: [FQDN],
    dns: { ttl: 60 },
    prepare: async (world) => {
      await publish(world.svc, FQDN, 'mx', `10 mx1.${FQDN}`);
      await world.svc.sandbox('PUT', `/ptr/${MX_IP}`, { name: `mx1.${FQDN}` });
      await publish(world.svc, FQDN, 'spf', 'v=spf1 mx include:_spf.vendor.example ~all');
      await world.svc.sandbox('PUT', '/spf-include/_spf.vendor.example', { lookups: 3 });
    },
  });
  ({ world, engine } = live);
  dnsPort = live.dns.port;
  engine.mirror.setSetting(LIVE_CHECK_SETTINGS_KEY, { kinds: { dnsbl: { zones: [TEST_DNSBL_ZONE] } } });
  const clock = {
    now: () => world.svc.clock.now().getTime(),
    sleep: async (ms: number) => void world.svc.clock.advance(Math.max(0, ms)),
    random: () => 0.5,
  };
  runtime = new LiveCheckRuntime({
    checks: [LIVE_CHECKS.spf_lookups!, LIVE_CHECKS.dnsbl_listings!, LIVE_CHECKS.token_expiry!],
    mirror: engine.mirror,
    clock,
    dns: { servers: [`127.0.0.1:${dnsPort}`] },
    networkCa: () => undefined,
    afterWrite: async () => {},
  });
  servedAtStart = live.served();
});
afterAll(() => live?.close());

describe('live checks over the reference world’s DNS', () => {
  it('SPF: a vendor include growing past 10 lookups is critical, names the include, and resolves when it shrinks', async () => {
    await round();
    expect(openAlerts()).toEqual([]);
    const row = engine.mirror.allLiveChecks().find((r) => r.check === 'spf_lookups');
    expect(row).toMatchObject({ status: 'ok', words: expect.stringContaining('4 of 10 DNS lookups') });

    await world.svc.sandbox('PUT', '/spf-include/_spf.vendor.example', { lookups: 10 });
    await round();
    expect(openAlerts()).toMatchObject([
      {
        rule: 'spf_lookups_over_limit',
        severity: 'critical',
        title: `SPF of ${FQDN} needs 11 DNS lookups: receivers fail it (permerror) — include:_spf.vendor.example now costs 10 lookups, was 3`,
      },
    ]);

    await world.svc.sandbox('PUT', '/spf-include/_spf.vendor.example', { lookups: 3 });
    await round();
    expect(openAlerts()).toEqual([]);
  });

  it('DNSBL: a listed MX address is a warning with the zone’s reason, resolved when delisted', async () => {
    await world.svc.sandbox('PUT', `/dnsbl/${MX_IP}`, { listed: true, reason: 'Listed for spam trap hits' });
    await round();
    const [listed] = openAlerts('dnsbl_listed');
    expect(listed).toMatchObject({
      severity: 'warning',
      title: `${MX_IP} (MX mx1.${FQDN}) of ${FQDN} is listed on ${TEST_DNSBL_ZONE}`,
    });
    expect(listed!.body).toContain('Listed for spam trap hits');

    await world.svc.sandbox('PUT', `/dnsbl/${MX_IP}`, { listed: false });
    await round();
    expect(openAlerts()).toEqual([]);
  });

  it('SPF: 9 lookups is a warning near the limit, 3 void lookups critical, each resolved when fixed', async () => {
    await world.svc.sandbox('PUT', '/spf-include/_spf.vendor.example', { lookups: 8 });
    await round();
    expect(openAlerts()).toMatchObject([{ rule: 'spf_lookups_near_limit', severity: 'warning' }]);
    expect(openAlerts()[0]!.title).toContain('include:_spf.vendor.example now costs 8 lookups, was 3');
    await world.svc.sandbox('PUT', '/spf-include/_spf.vendor.example', { lookups: 3 });
    await round();
    expect(openAlerts()).toEqual([]);

    const voids = [1, 2, 3].map((n) => `a:gone${n}.${FQDN}`).join(' ');
    await publish(world.svc, FQDN, 'spf', `v=spf1 mx include:_spf.vendor.example ${voids} ~all`);
    await round();
    expect(openAlerts()).toMatchObject([{ rule: 'spf_void_lookups', severity: 'critical' }]);
    expect(engine.mirror.allLiveChecks().find((r) => r.check === 'spf_lookups')!.words).toMatch(/3 void/);
    await publish(world.svc, FQDN, 'spf', 'v=spf1 mx include:_spf.vendor.example ~all');
    await round();
    expect(openAlerts()).toEqual([]);
  });

  it('DNSBL: an answer outside 127.0.0.0/8 is an error in words, never a listing nor a delisting', async () => {
    await world.svc.sandbox('PUT', `/dnsbl/${MX_IP}`, { listed: true, code: '10.0.0.2' });
    await round();
    expect(openAlerts()).toEqual([]);
    const row = () => engine.mirror.allLiveChecks().find((r) => r.check === 'dnsbl_listings')!;
    expect(row().words).toContain(`${MX_IP} on ${TEST_DNSBL_ZONE}:`);
    expect(row().words).not.toMatch(/is listed/);

    await world.svc.sandbox('PUT', `/dnsbl/${MX_IP}`, { listed: true, reason: 'Listed for spam trap hits' });
    await round();
    expect(openAlerts().map((a) => a.rule)).toEqual(['dnsbl_listed']);
    // The zone answers oddly again: the listing is not taken as ended.
    await world.svc.sandbox('PUT', `/dnsbl/${MX_IP}`, { listed: true, code: '10.0.0.2' });
    await round();
    expect(openAlerts().map((a) => a.rule)).toEqual(['dnsbl_listed']);
    await world.svc.sandbox('PUT', `/dnsbl/${MX_IP}`, { listed: false });
    await round();
    expect(openAlerts()).toEqual([]);
  });

  it('a resolver that stops answering raises nothing and resolves nothing', async () => {
    await world.svc.sandbox('PUT', `/dnsbl/${MX_IP}`, { listed: true });
    await world.svc.sandbox('PUT', '/spf-include/_spf.vendor.example', { lookups: 10 });
    await round();
    const before = openAlerts()
      .map((a) => a.rule)
      .sort();
    expect(before).toEqual(['dnsbl_listed', 'spf_lookups_over_limit']);
    await live.dns.close();
    // The world heals while the resolver is down: without answers, nothing is resolved (or raised).
    await world.svc.sandbox('PUT', `/dnsbl/${MX_IP}`, { listed: false });
    await round();
    expect(
      openAlerts()
        .map((a) => a.rule)
        .sort(),
    ).toEqual(before);
    const statuses = engine.mirror
      .allLiveChecks()
      .filter((r) => r.check !== 'token_expiry')
      .map((r) => r.status);
    expect(statuses).toEqual(['unknown', 'unknown']);
    live.dns = await startZoneDnsServer({ db: world.svc.db, port: dnsPort, ttl: 60 });
    await round();
    expect(openAlerts().map((a) => a.rule)).toEqual(['spf_lookups_over_limit']);
  });

  it('the token’s expiry is judged without a request, and the checks spent no API request at all', async () => {
    const row = engine.mirror.allLiveChecks().find((r) => r.check === 'token_expiry');
    expect(row?.status).toBe('ok');
    expect(served()).toBe(0);
  });
});
