/**
 * The routing table end to end: the reference service over HTTP with two domain groups (an MSP's clients),
 * the engine syncing on the service's clock, and two real webhook receivers. A route for group "Client A"
 * sends A's alerts only to A's channel; the default route sends the rest to the channels no route names;
 * "which route would this alert take?" answers the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, webhookChannel, type WebhookReceiver } from '../../support/webhookReceiver.ts';
import { DEFAULT_ROUTE } from '../../../main/core/mirror/routing.ts';
import { inputOf } from '../../../shared/bridge/routes.ts';
import {
  addSyncedAccount,
  openEngine,
  publish,
  scan,
  startWorld,
  type EngineWorld,
  type TestEngine,
} from '../../support/engineWorld.ts';

/** The domains of the protocol_disconnected alerts a receiver got. */
function domainsAt(hook: WebhookReceiver): string[] {
  return hook.received.flatMap((r) => {
    const json = r.json as {
      alerts?: { domain: string; rule: string }[];
      alert?: { domain: string; rule: string };
    };
    return (json.alerts ?? (json.alert ? [json.alert] : []))
      .filter((a) => a.rule === 'protocol_disconnected')
      .map((a) => a.domain);
  });
}

describe('routing by domain group', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  const hooks: Record<string, WebhookReceiver> = {};

  beforeAll(async () => {
    world = await startWorld(['a1.example', 'a2.example', 'b1.example']);
    for (const [group, members] of [
      ['Client A', ['a1.example', 'a2.example']],
      ['Client B', ['b1.example']],
    ] as const) {
      const created = await world.svc.call('POST', '/domain-groups', {
        token: world.token,
        body: { name: group },
      });
      expect(created.status).toBe(201);
      for (const fqdn of members) {
        const added = await world.svc.call('POST', `/domain-groups/${created.body.data.id}/domains`, {
          token: world.token,
          body: { domain_id: world.domainIds[fqdn] },
        });
        expect(added.status).toBe(200);
      }
    }
    for (const name of ['a', 'b', 'ops']) hooks[name] = await startWebhookReceiver(null);
    engine = openEngine(world);
    await addSyncedAccount(engine, world);
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
    for (const hook of Object.values(hooks)) await hook.close();
    await world?.close();
  });

  it('sends group A’s alerts only to A’s channel, B’s only to B’s, and says which route an alert takes', async () => {
    const a = engine.mirror.delivery.addChannel(webhookChannel('client-a', hooks.a!.url));
    const b = engine.mirror.delivery.addChannel(webhookChannel('client-b', hooks.b!.url));
    engine.mirror.delivery.addChannel(webhookChannel('ops', hooks.ops!.url));
    const saved = await engine.app.saveRoutes({
      routes: [
        {
          name: 'Client A',
          matchers: { group: 'Client A' },
          channelIds: [a.id],
          continue: false,
          isDefault: false,
          repeatMinutes: null,
          escalateAfterMinutes: null,
          escalateTo: [],
        },
        {
          name: 'Client B',
          matchers: { group: 'client b' },
          channelIds: [b.id],
          continue: false,
          isDefault: false,
          repeatMinutes: null,
          escalateAfterMinutes: null,
          escalateTo: [],
        },
        DEFAULT_ROUTE,
      ],
    });
    expect(saved.map((r) => [r.name, r.channels.map((c) => c.name)])).toEqual([
      ['Client A', ['client-a']],
      ['Client B', ['client-b']],
      ['Default', ['ops']],
    ]);
    await expect(
      engine.app.saveRoutes({
        routes: [
          {
            name: 'A',
            matchers: {},
            channelIds: [999],
            continue: false,
            isDefault: true,
            repeatMinutes: null,
            escalateAfterMinutes: null,
            escalateTo: [],
          },
        ],
      }),
    ).rejects.toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringContaining('no channel 999'),
    });

    world.svc.clock.advance(60_000);
    for (const fqdn of ['a1.example', 'b1.example']) await publish(world.svc, fqdn, 'spf', null);
    await scan(world.svc);
    await engine.app.syncNow();
    await engine.app.flushDeliveries(10_000);

    expect(domainsAt(hooks.a!)).toEqual(['a1.example']);
    expect(domainsAt(hooks.b!)).toEqual(['b1.example']);
    expect(domainsAt(hooks.ops!)).toEqual([]);

    const alert = (await engine.app.listAlerts({ open: true })).find(
      (x) => x.fqdn === 'b1.example' && x.rule === 'protocol_disconnected',
    )!;
    await expect(engine.app.routeTest({ alertId: alert.id })).resolves.toEqual({
      routes: [{ id: saved[1]!.id, name: 'Client B' }],
      channels: ['client-b'],
      silencedBy: null,
    });
  }, 120_000);

  it('escalates a critical left unacknowledged to the escalation channel on the clock, not an acknowledged one', async () => {
    const [a, b, ops] = ['client-a', 'client-b', 'ops'].map((n) => engine.mirror.delivery.findChannel(n)!.id);
    const route = { continue: false, isDefault: false, repeatMinutes: null, escalateTo: [] as number[] };
    await engine.app.saveRoutes({
      routes: [
        {
          ...route,
          name: 'Client A',
          matchers: { group: 'Client A' },
          channelIds: [a!],
          escalateAfterMinutes: 15,
          escalateTo: [ops!],
        },
        {
          ...route,
          name: 'Client B',
          matchers: { group: 'Client B' },
          channelIds: [b!],
          escalateAfterMinutes: 15,
          escalateTo: [ops!],
        },
        {
          ...route,
          name: 'Default',
          matchers: {},
          channelIds: null,
          isDefault: true,
          escalateAfterMinutes: null,
        },
      ],
    });
    const open = await engine.app.listAlerts({ open: true });
    const b1 = open.find((x) => x.fqdn === 'b1.example' && x.rule === 'protocol_disconnected')!;
    await engine.app.acknowledgeAlert({ id: b1.id, note: 'Client B knows; ticket 77' });
    world.svc.clock.advance(16 * 60_000);
    await engine.app.flushDeliveries(10_000);
    const escalated = hooks.ops!.received.filter((r) => r.json.type === 'alert.escalated');
    expect(domainsAt({ received: escalated } as WebhookReceiver)).toEqual(['a1.example']);
    // B's channel heard the acknowledgement, with its note.
    const ack = hooks.b!.received.find((r) => r.json.type === 'alert.acknowledged');
    expect(JSON.stringify(ack?.json)).toContain('Client B knows; ticket 77');

    // The table saved again from Settings with an unrelated route added: the escalation is not sent again.
    const table = await engine.app.listRoutes();
    const input = table.map(inputOf);
    const unrelated = { ...input[0]!, id: undefined, name: 'Elsewhere', matchers: { domain: 'z.example' } };
    await engine.app.saveRoutes({ routes: [unrelated, ...input] });
    world.svc.clock.advance(60_000);
    await engine.app.flushDeliveries(10_000);
    expect(hooks.ops!.received.filter((r) => r.json.type === 'alert.escalated')).toHaveLength(
      escalated.length,
    );
  }, 120_000);

  it('tells a route’s channels when a silence starts and stops holding an alert they were told of, once each', async () => {
    const table = await engine.app.listRoutes();
    await engine.app.saveRoutes({
      routes: table.map((r) => ({ ...inputOf(r), silenceEvents: r.name === 'Client A' })),
    });
    const now = world.svc.clock.now().getTime();
    const silence = await engine.app.saveSilence({
      matchers: { domain: 'a1.example' },
      reason: 'moving a1 to the new DNS provider',
      endsAt: new Date(now + 2 * 3_600_000).toISOString(),
    });
    world.svc.clock.advance(10_000);
    await engine.app.flushDeliveries(10_000);
    world.svc.clock.advance(10_000);
    await engine.app.flushDeliveries(10_000);
    const of = (type: string) => hooks.a!.received.filter((r) => r.json.type === type);
    expect(of('alert.silenced')).toHaveLength(1);
    const [said] = (of('alert.silenced')[0]!.json.alerts as Record<string, unknown>[]).filter(
      (a) => a.rule === 'protocol_disconnected',
    );
    expect(said).toMatchObject({
      domain: 'a1.example',
      silence_reason: 'moving a1 to the new DNS provider',
      silenced_by: expect.any(String),
      silenced_until: new Date(now + 2 * 3_600_000).toISOString(),
    });
    // Client B's route did not ask: its channel hears nothing of silences.
    expect(hooks.b!.received.filter((r) => String(r.json.type).includes('silenced'))).toEqual([]);

    world.svc.clock.advance(60_000);
    await engine.app.expireSilence({ id: silence.id });
    await engine.app.flushDeliveries(10_000);
    world.svc.clock.advance(60_000);
    await engine.app.flushDeliveries(10_000);
    expect(of('alert.unsilenced')).toHaveLength(1);
    expect(of('alert.silenced')).toHaveLength(1);
    expect(hooks.a!.invalid()).toEqual([]);
  }, 120_000);
});
