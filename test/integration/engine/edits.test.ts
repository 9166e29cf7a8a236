import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openEngine,
  publish,
  scan,
  startWorld,
  type EngineWorld,
  type TestEngine,
} from '../../support/engineWorld.ts';

const MIN = 60_000;

describe('edits through the facade, against the reference service', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  let accountId: number;

  beforeAll(async () => {
    world = await startWorld(['alpha.example', 'beta.example']);
    engine = openEngine(world);
    accountId = (
      await engine.app.addAccount({ label: 'Acme', baseUrl: world.svc.baseUrl, token: world.token })
    ).account.id;
    await engine.app.syncNow({ accountId });
  });
  afterAll(async () => {
    await engine?.close();
    world.svc.expectNoContractViolations();
    await world?.close();
  });

  it('adding a domain re-polls the domain list, so the mirror shows it at once', async () => {
    const result = await engine.app.edit({
      operation: 'createDomain',
      accountId,
      body: { fqdn: 'new.example' },
    });
    expect(result.status).toBe(201);
    expect(result.repolled).toEqual(['domains']);
    expect((await engine.app.overview({ accountId })).map((r) => r.fqdn).sort()).toEqual([
      'alpha.example',
      'beta.example',
      'new.example',
    ]);
  });

  it('hosted SPF edits re-poll the domain’s posture signals', async () => {
    const domainId = world.domainIds['alpha.example']!;
    const created = await engine.app.edit({ operation: 'createHostedSpf', accountId, domainId });
    expect(created.status).toBeLessThan(300);
    expect(created.repolled).toEqual(expect.arrayContaining(['dns_changes', 'health', 'security_score']));

    // The service refuses includes of names without an SPF record; give the target one.
    await publish(world.svc, '_spf.mailer.example', 'spf', 'v=spf1 ip4:192.0.2.0/24 -all');
    const include = await engine.app.edit({
      operation: 'addSpfInclude',
      accountId,
      domainId,
      body: { include_content: '_spf.mailer.example' },
    });
    expect(include.status).toBe(201);
    const all = await engine.app.edit({
      operation: 'updateHostedSpf',
      accountId,
      domainId,
      body: { all: '~all' },
    });
    expect(JSON.stringify(all.data)).toContain('~all');
  });

  it('a DMARC policy edit is pending until the next scan confirms it (or says it did not happen)', async () => {
    const domainId = world.domainIds['alpha.example']!;
    const postureOf = async () =>
      (await engine.app.overview({ accountId })).find((r) => r.domainId === domainId)!.posture;
    await engine.app.edit({ operation: 'createHostedDmarc', accountId, domainId, body: { p: 'none' } });
    // The customer points _dmarc at the hosted record (a CNAME), as its dns_targets say.
    const delegated = await world.svc.sandbox('PUT', '/delegations/alpha.example/dmarc', { delegated: true });
    expect(delegated.status).toBe(200);
    world.svc.clock.advance(MIN);
    await scan(world.svc);
    world.svc.clock.advance(MIN);
    await engine.app.syncNow({ accountId });
    expect((await postureOf()).dmarc?.policy).toBe('none');

    world.svc.clock.advance(MIN);
    await engine.app.edit({
      operation: 'updateDmarcPolicy',
      accountId,
      domainId,
      body: { policy: 'reject' },
    });
    let dmarc = (await postureOf()).protocols.dmarc;
    // The header and the row keep the evidence (p=none) and say a change is on its way.
    expect(dmarc.pending).toMatchObject({
      summary: 'p=reject',
      state: 'waiting',
      words: 'waiting for the next check',
    });
    expect((await postureOf()).dmarc?.policy).toBe('none');

    // The service's next scan shows p=reject: confirmed, no longer pending.
    world.svc.clock.advance(MIN);
    await scan(world.svc);
    world.svc.clock.advance(16 * MIN);
    await engine.app.syncNow({ accountId });
    const after = await postureOf();
    expect(after.protocols.dmarc.pending).toBeNull();
    expect(after.dmarc?.policy).toBe('reject');

    // A change the service does not carry out: the scan after it still shows the old record, said plainly.
    await engine.app.edit({
      operation: 'updateDmarcPolicy',
      accountId,
      domainId,
      body: { policy: 'quarantine' },
    });
    // The customer stops delegating _dmarc and publishes a record of their own: the edit never shows.
    await world.svc.sandbox('PUT', '/delegations/alpha.example/dmarc', { delegated: false });
    await publish(world.svc, 'alpha.example', 'dmarc', 'v=DMARC1; p=reject');
    world.svc.clock.advance(MIN);
    await scan(world.svc);
    world.svc.clock.advance(16 * MIN);
    await engine.app.syncNow({ accountId });
    dmarc = (await postureOf()).protocols.dmarc;
    expect(dmarc.pending).toMatchObject({
      summary: 'p=quarantine',
      state: 'contradicted',
      words: 'the service scan after the change still shows p=reject',
    });
  });

  it('an invalid edit is refused before any request and the service is not called', async () => {
    const before = world.svc.clock.now().getTime();
    await expect(
      engine.app.edit({
        operation: 'addSpfIpAction',
        accountId,
        domainId: world.domainIds['alpha.example']!,
        body: { ip: '300.1.2.3', type: 'Allow' },
      }),
    ).rejects.toMatchObject({ code: 'invalid_arguments' });
    expect(world.svc.clock.now().getTime()).toBe(before);
  });

  it('edits use the headroom the sync leaves: they go out at once while background sync waits', async () => {
    await engine.app.updateSettings({ sync: { ratePerMinute: 12, headroom: 4 } });
    world.svc.clock.advance(3 * 60 * MIN); // everything is due
    await engine.scheduler.tick(); // spends the bucket (6 for a limit of 12) down to the headroom of 4
    const status = (await engine.app.syncStatus()).accounts[0]!;
    expect(status.budget).toMatchObject({ capacity: 6, headroom: 4 });
    expect(status.budget.available).toBeLessThanOrEqual(4);

    const before = world.svc.clock.now().getTime();
    const result = await engine.app.edit({
      operation: 'createDomainGroup',
      accountId,
      body: { name: 'Clients' },
    });
    expect(result.status).toBe(201);
    // No wait for the budget: the (virtual) clock did not move during the edit and its re-poll.
    expect(world.svc.clock.now().getTime()).toBe(before);

    // Background sync still respects the headroom: a tick now fetches nothing.
    const changedBefore = engine.events.filter((e) => e.type === 'changed').length;
    await engine.scheduler.tick();
    expect(engine.events.filter((e) => e.type === 'changed').length).toBe(changedBefore);
  });

  it('deleting a domain removes it from the overview after the re-poll', async () => {
    const created = await engine.app.overview({ accountId });
    const doomed = created.find((r) => r.fqdn === 'new.example')!;
    await engine.app.edit({ operation: 'deleteDomain', accountId, domainId: doomed.domainId });
    expect((await engine.app.overview({ accountId })).map((r) => r.fqdn)).not.toContain('new.example');
  });

  it('a muted domain records its alert without notifying; acknowledging marks it seen', async () => {
    await engine.app.updateSettings({ sync: { ratePerMinute: 600, headroom: 6 } });
    const domainId = world.domainIds['beta.example']!;
    await engine.app.muteDomain({ accountId, domainId, until: null });
    await publish(world.svc, 'beta.example', 'dmarc', null);
    world.svc.clock.advance(6 * MIN);
    await scan(world.svc);
    await engine.app.syncNow({ accountId });
    const alerts = await engine.app.listAlerts({
      accountId,
      domainId,
      rule: 'protocol_disconnected',
      open: true,
    });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.suppressed).toBe('muted');
    expect(engine.notifier.notified.filter((a) => a.domainId === domainId)).toEqual([]);

    await engine.app.acknowledgeAlerts({ ids: [alerts[0]!.id] });
    const after = (await engine.app.listAlerts({ accountId, domainId })).find((a) => a.id === alerts[0]!.id);
    expect(after!.acknowledgedAt).not.toBeNull();
  });
});
