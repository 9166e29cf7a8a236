/**
 * A delivery channel failing for longer than the limit, through the whole app: the engine over the reference
 * service, two real webhook channels on 127.0.0.1 — one whose address refuses connections — the outbox sender
 * and the live checks. After an hour of failing, one warning in the channel's last error reaches the app's
 * own notification and the channel that works; when the channel delivers again, it ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CHECKS } from '../../../main/core/livechecks/registry.ts';
import { DEFAULT_ROUTE } from '../../../main/core/mirror/routing.ts';
import { manualScheduler } from '../../../main/core/sync/scheduler.ts';
import { freePort } from '../../support/freePort.ts';
import { startWebhookReceiver, webhookChannel, type WebhookReceiver } from '../../support/webhookReceiver.ts';
import {
  addSyncedAccount,
  openEngine,
  startWorld,
  type EngineWorld,
  type TestEngine,
} from '../../support/engineWorld.ts';

let world: EngineWorld;
let engine: TestEngine;
let team: WebhookReceiver;
let ops: WebhookReceiver;
let accountId: number;
let closedPort: number;

/** The rules of the alerts a receiver was told of (raised or resolved, as `type rule`). */
function told(hook: WebhookReceiver): string[] {
  return hook.received.flatMap((r) => {
    const json = r.json as { type?: string; alerts?: { rule: string }[]; alert?: { rule: string } };
    return (json.alerts ?? (json.alert ? [json.alert] : [])).map((a) => `${json.type ?? ''} ${a.rule}`);
  });
}

const openFailing = async () =>
  (await engine.app.listAlerts({ accountId, open: true })).filter((a) => a.rule === 'channel_failing');

beforeAll(async () => {
  world = await startWorld(['cf.example']);
  [team, ops] = await Promise.all([startWebhookReceiver(null), startWebhookReceiver(null)]);
  closedPort = await freePort();
  engine = openEngine(world, {
    // The live checks run beside the DNS watch; this one needs no DNS, so its resolver may be anything.
    dnsWatch: { servers: [`127.0.0.1:${closedPort}`], scheduler: manualScheduler() },
    liveChecks: { scheduler: manualScheduler(), checks: [LIVE_CHECKS.channel_failing!] },
  });
  accountId = await addSyncedAccount(engine, world);
}, 60_000);

afterAll(async () => {
  await engine?.close();
  await Promise.all([team?.close(), ops?.close()]);
  await world?.close();
});

describe('a delivery channel failing for longer than the limit', () => {
  it('is told through the app’s notification and the other channel in its last error, and ends when it delivers', async () => {
    engine.mirror.delivery.addChannel(webhookChannel('Team hook', team.url));
    const broken = engine.mirror.delivery.addChannel(
      webhookChannel('Ops hook', `http://127.0.0.1:${closedPort}/hook`),
    );
    engine.mirror.raiseAccountAlert({ accountId, kind: 'plan_not_eligible' });
    await engine.app.flushDeliveries(1000);
    expect(told(team)).toEqual(['alert.raised plan_not_eligible']);
    const lastError = engine.mirror.delivery.getChannel(broken.id)!.lastError!;
    expect(lastError).toContain(`127.0.0.1:${closedPort}/hook could not`);

    world.svc.clock.advance(30 * 60_000);
    await engine.app.flushDeliveries(1000);
    await engine.app.checkLiveOnce();
    expect(await openFailing()).toEqual([]);

    world.svc.clock.advance(31 * 60_000);
    await engine.app.flushDeliveries(1000);
    await engine.app.checkLiveOnce();
    const [alert] = await openFailing();
    expect(alert).toMatchObject({
      severity: 'warning',
      title: expect.stringContaining('“Ops hook” is failing:'),
    });
    expect(alert!.title).toContain(engine.mirror.delivery.getChannel(broken.id)!.lastError!);
    expect(engine.notifier.notified.map((a) => a.rule)).toContain('channel_failing');
    await engine.app.flushDeliveries(1000);
    expect(told(team)).toContain('alert.raised channel_failing');

    // The channel is mended (its address now answers): it delivers what waited, and the alert ends.
    engine.mirror.delivery.updateChannel(broken.id, webhookChannel('Ops hook', ops.url));
    await engine.app.flushDeliveries(1000);
    expect(engine.mirror.delivery.getChannel(broken.id)!.lastError).toBeNull();
    await engine.app.checkLiveOnce();
    expect(await openFailing()).toEqual([]);
    await engine.app.flushDeliveries(1000);
    expect(told(team)).toContain('alert.resolved channel_failing');
    // The mended channel delivers what waited for it, but never a late word of its own outage.
    expect(told(ops)).toEqual(['alert.raised plan_not_eligible']);
  });

  it('says so when the routes send warnings only to the failing channel, and still reaches the app’s notification', async () => {
    const broken = engine.mirror.delivery.findChannel('Ops hook')!;
    engine.mirror.routes.replace([
      {
        ...DEFAULT_ROUTE,
        name: 'Everything to Ops',
        channelIds: [broken.id],
        isDefault: false,
        groupWaitSeconds: 0,
      },
      DEFAULT_ROUTE,
    ]);
    engine.mirror.delivery.updateChannel(
      broken.id,
      webhookChannel('Ops hook', `http://127.0.0.1:${closedPort}/hook`),
    );
    const teamBefore = told(team).length;
    const notifiedBefore = engine.notifier.notified.length;
    engine.mirror.raiseAccountAlert({ accountId, kind: 'api_access_disabled' });
    await engine.app.flushDeliveries(1000);
    expect(engine.mirror.delivery.getChannel(broken.id)!.lastError).not.toBeNull();

    world.svc.clock.advance(61 * 60_000);
    await engine.app.flushDeliveries(1000);
    await engine.app.checkLiveOnce();
    const [alert] = await openFailing();
    expect(alert!.body).toContain(
      'your routes send warnings only to “Ops hook”, so until it is mended only the app’s notifications and tray carry them',
    );
    expect(alert!.body).not.toContain('the other channels still carry alerts');
    const notified = engine.notifier.notified.slice(notifiedBefore).map((a) => a.rule);
    expect(notified).toContain('channel_failing');
    await engine.app.flushDeliveries(1000);
    // No channel is told: the routes send it to the failing channel alone, which never hears of itself.
    expect(told(team).slice(teamBefore)).toEqual([]);
    const queued = engine.mirror.delivery.failingChannels().find((c) => c.id === broken.id)!.waiting;
    expect(queued).toBe(1);
  });
});
