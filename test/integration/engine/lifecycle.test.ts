import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import type { AuthwatchEvent } from '../../../main/core/app.ts';
import { TEST_SANDBOX_KEY } from '../../support/serviceHarness.ts';
import {
  openEngine,
  publish,
  scan,
  startWorld,
  type EngineWorld,
  type TestEngine,
} from '../../support/engineWorld.ts';

const DOMAINS = ['alpha.example', 'beta.example', 'gamma.example'];
/** 2026-06-14T00:00:00Z, the day before the harness clock's start. */
const REPORT_DAY = 1_781_395_200;

/** A DMARC aggregate report in which `ip` sent 25 messages as `fqdn`, all failing DMARC. */
function aggregateReport(fqdn: string, ip: string, reportId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<feedback>
  <report_metadata>
    <org_name>receiver.example</org_name>
    <email>noreply-dmarc@receiver.example</email>
    <report_id>${reportId}</report_id>
    <date_range><begin>${REPORT_DAY}</begin><end>${REPORT_DAY + 86_399}</end></date_range>
  </report_metadata>
  <policy_published>
    <domain>${fqdn}</domain><adkim>r</adkim><aspf>r</aspf><p>reject</p><sp>reject</sp><pct>100</pct>
  </policy_published>
  <record>
    <row>
      <source_ip>${ip}</source_ip>
      <count>25</count>
      <policy_evaluated><disposition>reject</disposition><dkim>fail</dkim><spf>fail</spf></policy_evaluated>
    </row>
    <identifiers><header_from>${fqdn}</header_from></identifiers>
    <auth_results><spf><domain>${fqdn}</domain><result>fail</result></spf></auth_results>
  </record>
</feedback>
`;
}

/** Delivers a DMARC aggregate report to the service as a receiver would (sandbox upload). */
async function uploadDmarcReport(
  world: EngineWorld,
  xml: string,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${world.svc.origin}/_sandbox/reports/dmarc`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml', 'x-sandbox-key': TEST_SANDBOX_KEY },
    body: xml,
  });
  return { status: res.status, body: await res.json() };
}
const MIN = 60_000;

type Progress = Extract<AuthwatchEvent, { type: 'progress' }>;

describe('engine lifecycle against the reference service', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  const secrets = memorySecretStore();
  let accountId: number;

  beforeAll(async () => {
    world = await startWorld(DOMAINS);
    engine = openEngine(world, { secretStore: secrets });
  });
  afterAll(async () => {
    await engine?.close();
    world.svc.expectNoContractViolations();
    await world?.close();
  });

  const disconnectAlerts = async () =>
    (await engine.app.listAlerts({ accountId, rule: 'protocol_disconnected' })).filter(
      (a) => a.fqdn === 'beta.example',
    );

  it('first sync fills the mirror for every domain and reports progress', async () => {
    const added = await engine.app.addAccount({
      label: 'Acme',
      baseUrl: world.svc.baseUrl,
      token: world.token,
    });
    accountId = added.account.id;
    expect(added.identity.scopes).toContain('domains:read');
    // Before the domain list has arrived the first sync is not done (the sidebar: "waiting for the domain
    // list", never "0 of 0 domains" or "Last synced").
    const waiting = (await engine.app.syncStatus()).accounts.find((a) => a.accountId === accountId);
    expect(waiting?.backfill).toEqual({
      domainsDone: 0,
      domainsTotal: 0,
      domainsWatched: 0,
      complete: false,
      // Nothing waits for the first day's alert reads before there is a domain list to read.
      startsAt: null,
    });

    const [result] = await engine.app.syncNow({ accountId });
    expect(result).toMatchObject({ accountId, failed: 0, paused: null, errors: [] });

    const overview = await engine.app.overview({ accountId });
    expect(overview.map((row) => row.fqdn).sort()).toEqual(DOMAINS);
    for (const row of overview) {
      expect(row.health?.protocols).toMatchObject({ spf: true, dmarc: true });
      expect(row.score?.score).toBeGreaterThan(0);
    }
    // Each signal's age is the mirror's (the window's rows carry only the newest).
    for (const row of engine.mirror.overview(accountId))
      expect(row.data.dns_changes?.lastSuccessAt).not.toBeNull();
    const detail = await engine.app.domainDetail({ accountId, domainId: world.domainIds['beta.example']! });
    expect(
      detail?.dnsSummary.spf?.current_status ?? detail?.dnsCurrent.spf?.current_status ?? 'connected',
    ).toBe('connected');
    const history = await engine.app.history({
      kind: 'dns_events',
      accountId,
      domainId: world.domainIds['beta.example']!,
    });
    expect(history.map((e) => `${e.recordType}:${e.action}`).sort()).toEqual([
      'dmarc:connected',
      'spf:connected',
    ]);

    const progress = engine.events.filter((e): e is Progress => e.type === 'progress');
    expect(progress.length).toBeGreaterThan(3);
    const last = progress[progress.length - 1]!;
    expect(last).toMatchObject({ domainsDone: 3, domainsTotal: 3 });
    expect(last.requestsSpent).toBe(result!.requestsSpent);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.requestsSpent).toBeGreaterThanOrEqual(progress[i - 1]!.requestsSpent);
    }

    const status = await engine.app.syncStatus();
    expect(status.accounts[0]).toMatchObject({
      state: 'active',
      backfill: { domainsDone: 3, domainsTotal: 3, domainsWatched: 3, complete: true },
    });
    // Three domains leave most of the budget spare: the alert signals are polled at the one-minute floor;
    // DNS changes (whose record changes health shows first, and which are read right after it does) weekly.
    expect(status.accounts[0]!.periods.health).toEqual({ targetSeconds: 900, effectiveSeconds: 60, jobs: 3 });
    expect(status.accounts[0]!.periods.dns_changes).toEqual({
      targetSeconds: 7 * 86_400,
      effectiveSeconds: 7 * 86_400,
      jobs: 3,
    });
    expect(await engine.app.listAlerts({ accountId, open: true })).toEqual([]);

    // The token is in the secret store only: not in the mirror file nor its write-ahead log (both exist
    // while the mirror is open in WAL mode, so neither check can pass by finding no file).
    for (const file of [join(world.dir, 'mirror.db'), join(world.dir, 'mirror.db-wal')]) {
      expect(existsSync(file), file).toBe(true);
      expect(readFileSync(file).includes(world.token)).toBe(false);
    }
  });

  it('removing beta’s SPF record raises exactly one protocol_disconnected alert at the next sync, notified once', async () => {
    await publish(world.svc, 'beta.example', 'spf', null);
    world.svc.clock.advance(5 * MIN);
    await scan(world.svc);

    await engine.runFor(MIN);
    const alerts = await disconnectAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ resolvedAt: null, domainId: world.domainIds['beta.example'] });
    expect(alerts[0]!.title).toMatch(/spf/i);
    expect(engine.notifier.notified.filter((a) => a.rule === 'protocol_disconnected')).toHaveLength(1);

    // Later ticks and another scan of the unchanged zone add nothing.
    world.svc.clock.advance(5 * MIN);
    await scan(world.svc);
    await engine.runFor(MIN);
    await engine.app.syncNow({ accountId });
    expect(await disconnectAlerts()).toHaveLength(1);
    expect(engine.notifier.notified.filter((a) => a.rule === 'protocol_disconnected')).toHaveLength(1);
  });

  it('a restart (mirror file reopened, new facade) produces no duplicate alert or notification', async () => {
    await engine.close();
    engine = openEngine(world, { secretStore: secrets });
    world.svc.clock.advance(6 * MIN);
    await engine.app.syncNow({ accountId });
    await engine.runFor(MIN);
    expect(await disconnectAlerts()).toHaveLength(1);
    expect(engine.notifier.notified).toEqual([]);
  });

  it('restoring the record and scanning resolves the alert', async () => {
    await publish(world.svc, 'beta.example', 'spf', 'v=spf1 ip4:192.0.2.0/24 -all');
    world.svc.clock.advance(5 * MIN);
    await scan(world.svc);
    await engine.runFor(MIN);
    const alerts = await disconnectAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.resolvedAt).not.toBeNull();
    expect(await engine.app.listAlerts({ accountId, open: true, rule: 'protocol_disconnected' })).toEqual([]);
  });

  it('a registered threat sending as gamma raises exactly one threat_source_appeared', async () => {
    const threatIp = '198.51.100.77';
    const registered = await world.svc.sandbox('POST', '/threats', { source_name: threatIp });
    expect(registered.status).toBe(201);
    const uploaded = await uploadDmarcReport(
      world,
      aggregateReport('gamma.example', threatIp, 'threat-report-1'),
    );
    expect(uploaded.status).toBe(201);

    world.svc.clock.advance(60 * MIN);
    await engine.runFor(MIN);
    const threats = () => engine.app.listAlerts({ accountId, rule: 'threat_source_appeared' });
    const raised = await threats();
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ fqdn: 'gamma.example', resolvedAt: null });
    expect(engine.notifier.notified.filter((a) => a.rule === 'threat_source_appeared')).toHaveLength(1);

    // The same source in the next windows is the same episode.
    world.svc.clock.advance(60 * MIN);
    await engine.runFor(MIN);
    await engine.app.syncNow({ accountId });
    expect(await threats()).toHaveLength(1);
  });

  it('opening a domain fetches its on-demand panels; its current records stay polled for every domain weekly', async () => {
    const domainId = world.domainIds['alpha.example']!;
    await engine.app.openDomain({ accountId, domainId });
    await engine.app.whenIdle();
    const changed = engine.events
      .filter((e) => e.type === 'changed' && e.domainId === domainId)
      .map((e) => (e as { signal: string }).signal);
    expect(changed).toEqual(
      expect.arrayContaining(['dns_current', 'dns_timeline', 'mail_volume', 'sending_services']),
    );
    // dns_current is polled for every domain (the SPF lookup rule reads it), weekly: opening one refreshes it
    // at once (above) without adding a job of its own.
    const status = await engine.app.syncStatus();
    expect(status.accounts[0]!.periods.dns_current).toEqual({
      targetSeconds: 7 * 86_400,
      effectiveSeconds: 7 * 86_400,
      jobs: Object.keys(world.domainIds).length,
    });
  });
});
