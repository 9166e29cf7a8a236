/**
 * The Alertmanager channel against Debian's real Alertmanager (v2 API) on 127.0.0.1: an SPF removal becomes
 * one firing alert with the metrics' labels; re-sends keep it alive past Alertmanager's resolve_timeout;
 * the record returning ends it (endsAt), and Alertmanager itself notifies "resolved". An acknowledgement
 * with a note goes on as the same alert labelled acknowledged="true" with the note as an annotation (the
 * unacknowledged one ends), and stays so through the re-sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import { startAlertmanager, type RunningAlertmanager } from '../../support/alertmanager.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.ts';
import {
  addSyncedAccount,
  openEngine,
  publish,
  scan,
  startWorld,
  type EngineWorld,
  type TestEngine,
} from '../../support/engineWorld.ts';

const SPF = 'v=spf1 ip4:192.0.2.0/24 -all';

/** Alertmanager's own notifications (its webhook receiver) about our SPF alert. */
function notified(hook: WebhookReceiver): { status: string }[] {
  return hook.received
    .flatMap((r) => (r.json.alerts as { status: string; labels: Record<string, string> }[]) ?? [])
    .filter((a) => a.labels.alertname === 'protocol_disconnected' && a.labels.domain === 'am.example');
}

async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the Alertmanager channel against a real Alertmanager', () => {
  let world: EngineWorld;
  let amHook: WebhookReceiver;
  let am: RunningAlertmanager;
  let engine: TestEngine;
  let accountId: number;

  beforeAll(async () => {
    world = await startWorld(['am.example']);
    amHook = await startWebhookReceiver(null);
    am = await startAlertmanager(amHook.url, { resolveTimeout: '6s' });
    engine = openEngine(world, { delivery: { secretStore: memorySecretStore(), sender: { pollMs: 500 } } });
    accountId = await addSyncedAccount(engine, world);
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
    await am?.close();
    await amHook?.close();
    await world?.close();
  });

  const pass = async () => {
    await engine.app.holdDeliveries(engine.app.syncNow({ accountId }));
    return engine.app.flushDeliveries(15_000);
  };
  const ours = async () =>
    (await am.alerts()).filter(
      (a) => a.labels.alertname === 'protocol_disconnected' && a.labels.domain === 'am.example',
    );

  it('fires one alert, keeps it alive by re-sending, and resolves it when the record returns', async () => {
    const { channel } = await engine.app.channels.add({
      kind: 'alertmanager',
      name: 'am',
      url: am.url,
      minSeverity: 'critical',
      resendSeconds: 5,
    });
    expect(await engine.app.channels.test(channel.id)).toEqual({ ok: true });

    world.svc.clock.advance(60_000);
    await publish(world.svc, 'am.example', 'spf', null);
    await scan(world.svc);
    expect(await pass()).toMatchObject({ failed: 0 });
    const firing = await ours();
    expect(firing).toHaveLength(1);
    expect(firing[0]!.labels).toEqual({
      alertname: 'protocol_disconnected',
      severity: 'critical',
      account: 'Acme',
      domain: 'am.example',
      protocol: 'spf',
    });
    expect(firing[0]!.annotations.summary).toBe('SPF record of am.example disconnected');
    await until(() => notified(amHook).some((a) => a.status === 'firing'), 15_000, 'the firing notification');

    // Past resolve_timeout (6 s) it is still firing: the sender re-sends open alerts every 5 s (of the
    // engine's clock, which this loop moves along with real time).
    for (let i = 0; i < 12; i++) {
      world.svc.clock.advance(1_000);
      await new Promise((r) => setTimeout(r, 1_000));
    }
    expect(await ours()).toHaveLength(1);
    expect(notified(amHook).some((a) => a.status === 'resolved')).toBe(false);

    world.svc.clock.advance(60_000);
    await publish(world.svc, 'am.example', 'spf', SPF);
    await scan(world.svc);
    await pass();
    await until(async () => (await ours()).length === 0, 10_000, 'the alert to leave the active list');
    await until(
      () => notified(amHook).some((a) => a.status === 'resolved'),
      15_000,
      'the resolved notification',
    );
    expect(engine.app.channels.list().find((c) => c.name === 'am')).toMatchObject({
      queued: 0,
      lastError: null,
    });
  }, 120_000);

  it('carries an acknowledgement as acknowledged="true" with the note, through the re-sends', async () => {
    world.svc.clock.advance(60_000);
    await publish(world.svc, 'am.example', 'spf', null);
    await scan(world.svc);
    await pass();
    await until(async () => (await ours()).length === 1, 10_000, 'the alert to fire');
    const alert = (await engine.app.listAlerts({ open: true })).find(
      (a) => a.fqdn === 'am.example' && a.rule === 'protocol_disconnected',
    )!;
    await engine.app.acknowledgeAlert({ id: alert.id, note: 'DNS provider ticket 4411' });
    await engine.app.flushDeliveries(15_000);
    const acknowledged = async () => {
      const list = await ours();
      return list.length === 1 && list[0]!.labels.acknowledged === 'true';
    };
    await until(acknowledged, 10_000, 'the acknowledged alert to replace the open one');
    const [firing] = await ours();
    expect(firing!.annotations).toMatchObject({
      summary: 'SPF record of am.example disconnected',
      ack_note: 'DNS provider ticket 4411',
      ack_by: expect.any(String),
    });
    // Past resolve_timeout (6 s), re-sent every 5 s: still the acknowledged alert, its note kept.
    for (let i = 0; i < 8; i++) {
      world.svc.clock.advance(1_000);
      await new Promise((r) => setTimeout(r, 1_000));
    }
    expect(await acknowledged()).toBe(true);
    expect((await ours())[0]!.annotations.ack_note).toBe('DNS provider ticket 4411');
  }, 120_000);
});
