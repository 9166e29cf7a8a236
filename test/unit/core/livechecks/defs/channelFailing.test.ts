/**
 * channel_failing: a delivery channel that fails for longer than the limit (Settings → Live checks, default
 * one hour) is one warning in the words of its last error, told through the app's notifications and every
 * other channel, and ended by the channel's next delivery — driven by the real outbox sender and live-check
 * runner over a mirror, on a fake clock.
 */
import { describe, expect, it } from 'vitest';
import { OutboxSender } from '../../../../../main/core/delivery/outboxSender.ts';
import { LiveCheckRunner } from '../../../../../main/core/livechecks/liveCheckRunner.ts';
import { readLiveCheckSettings } from '../../../../../main/core/livechecks/liveCheckSettings.ts';
import { LIVE_CHECKS } from '../../../../../main/core/livechecks/registry.ts';
import { mirrorWithDomain } from '../../mirror/payloads.ts';
import { webhookChannel } from '../../delivery/recordingOutbox.ts';

const ERROR = 'the webhook answered HTTP 503 Service Unavailable';

function world(kinds: Record<string, Record<string, unknown>> = {}) {
  const { mirror, accountId, clock } = mirrorWithDomain();
  mirror.delivery.addChannel(webhookChannel('Ops hook'));
  mirror.delivery.addChannel(webhookChannel('Team chat'));
  const state = { opsDown: true };
  const told: { channel: string; rules: string[]; type: string }[] = [];
  const sender = new OutboxSender({
    store: mirror.delivery,
    transportFor: async (c) => ({
      async send(message) {
        if (c.name === 'Ops hook' && state.opsDown) throw new Error(ERROR);
        told.push({ channel: c.name, type: message.type, rules: message.alerts.map((a) => a.rule) });
      },
    }),
    now: () => clock.now(),
    alertSettings: () => mirror.getAlertSettings(),
  });
  const runner = new LiveCheckRunner({
    mirror,
    clock: { now: () => clock.now(), sleep: async () => {}, random: () => 0.5 },
    checks: [LIVE_CHECKS.channel_failing!],
    settings: readLiveCheckSettings({ kinds }),
    resolver: null,
    dnsTrusted: () => true,
    ca: undefined,
    afterWrite: async () => {},
  });
  const at = async (iso: string) => {
    clock.set(iso);
    await sender.round({ ignoreGather: true, ignoreBackoff: true });
    await runner.round();
  };
  const open = () => mirror.listAlerts({ accountId, open: true }).filter((a) => a.rule === 'channel_failing');
  return { mirror, accountId, state, told, at, open };
}

describe('channel_failing (live, from the outbox)', () => {
  it('a channel failing past an hour is one warning in its last error’s words, told elsewhere, ended by its next delivery', async () => {
    const w = world();
    w.mirror.raiseAccountAlert({
      accountId: w.accountId,
      kind: 'plan_not_eligible',
      at: '2025-03-01T10:00:00Z',
    });
    await w.at('2025-03-01T10:00:00Z');
    await w.at('2025-03-01T10:40:00Z');
    expect(w.open()).toEqual([]);
    const row = w.mirror.liveCheck('channel_failing', w.accountId, null)!;
    expect(row).toMatchObject({ status: 'ok', words: `“Ops hook” failing for 40 minutes: ${ERROR}` });

    await w.at('2025-03-01T11:01:00Z');
    const [alert] = w.open();
    expect(alert).toMatchObject({
      severity: 'warning',
      fqdn: null,
      title: `Delivery channel “Ops hook” is failing: ${ERROR}`,
    });
    expect(alert!.body).toContain(
      'for 1 hour (since 2025-03-01T10:00:00.000Z), longer than the 1 hour allowed',
    );
    // The app's own notification and tray are owed it, and the channel that works told it.
    expect(w.mirror.pendingDeliveries('2025-03-01T11:01:00Z').map((a) => a.rule)).toContain(
      'channel_failing',
    );
    await w.at('2025-03-01T11:02:00Z');
    expect(w.told.filter((t) => t.rules.includes('channel_failing'))).toEqual([
      { channel: 'Team chat', type: 'alert.raised', rules: ['channel_failing'] },
    ]);
    await w.at('2025-03-01T11:30:00Z');
    expect(w.open()).toHaveLength(1);

    w.state.opsDown = false;
    await w.at('2025-03-01T11:40:00Z');
    expect(w.open()).toEqual([]);
    expect(w.mirror.liveCheck('channel_failing', w.accountId, null)!.words).toBe('every channel delivers');
  });

  it('follows the limit set in Settings → Live checks', async () => {
    const w = world({ channelFailing: { limitMinutes: 180 } });
    w.mirror.raiseAccountAlert({
      accountId: w.accountId,
      kind: 'plan_not_eligible',
      at: '2025-03-01T10:00:00Z',
    });
    await w.at('2025-03-01T10:00:00Z');
    await w.at('2025-03-01T12:30:00Z');
    expect(w.open()).toEqual([]);
    await w.at('2025-03-01T13:00:00Z');
    expect(w.open()[0]!.body).toContain('longer than the 3 hours allowed');
  });

  it('a failed test message with nothing to deliver is not a failing channel', async () => {
    const w = world();
    const ops = w.mirror.delivery.findChannel('Ops hook')!;
    w.mirror.delivery.noteChannelResult(ops.id, '2025-03-01T08:00:00.000Z', ERROR);
    await w.at('2025-03-01T11:00:00Z');
    expect(w.open()).toEqual([]);
    expect(w.mirror.liveCheck('channel_failing', w.accountId, null)!.words).toBe('every channel delivers');
  });
});
