/**
 * The outbox in the mirror and its sender, with fake transports and a fake clock: rows written in the
 * alert's own transaction, one message per channel for a pass's storm, stable ids across retries, backoff
 * on a failing channel without holding the others, quiet hours holding warnings but not criticals.
 */
import { describe, expect, it, vi } from 'vitest';
import { OutboxSender } from '../../../../main/core/delivery/outboxSender.ts';
import type { OutgoingMessage } from '../../../../main/core/delivery/message.ts';
import type { ChannelTransport } from '../../../../main/core/delivery/transport.ts';
import type { Channel, ChannelInput } from '../../../../main/core/mirror/deliveryTypes.ts';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { fakeClock, health } from '../mirror/payloads.ts';

const START = '2025-03-01T10:00:00Z';

/** A mirror with one account and `n` domains d0.example … whose SPF passes (one health reading each). */
function world(n: number) {
  const clock = fakeClock(START);
  const mirror = openMirror(':memory:', { clock });
  const account = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://app.example.net/api/v1' });
  const domains = Array.from({ length: n }, (_, i) => ({ id: 100 + i, fqdn: `d${i}.example` }));
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: domains.map((d) => ({ ...d, status: 'active', group_id: null })),
    fetchedAt: clock.now(),
  });
  const writeHealth = (i: number, spf: boolean, at: string) =>
    mirror.writeSignal({
      accountId: account.id,
      domainId: domains[i]!.id,
      signal: 'health',
      payload: { ...health(at, { spf }), domain_id: domains[i]!.id, fqdn: domains[i]!.fqdn },
      fetchedAt: at,
    });
  for (let i = 0; i < n; i++) writeHealth(i, true, '2025-03-01T09:00:00Z');
  return { mirror, clock, account, writeHealth };
}

function webhookInput(name: string, extra: Partial<ChannelInput> = {}): ChannelInput {
  return {
    name,
    minSeverity: 'warning',
    accountId: null,
    holdCriticals: false,
    config: {
      kind: 'webhook',
      format: 'generic',
      urlShown: 'https://hooks.example/…',
      plainUrl: 'https://hooks.example/x',
    },
    ...extra,
  };
}

/** A transport per channel that records messages and fails while `failing` holds its name. */
function transports() {
  const sent: { channel: string; message: OutgoingMessage }[] = [];
  const failing = new Set<string>();
  const factory = async (channel: Channel): Promise<ChannelTransport> => ({
    async send(message) {
      if (failing.has(channel.name)) throw new Error(`${channel.name} is down`);
      sent.push({ channel: channel.name, message });
    },
  });
  return { sent, failing, factory };
}

function sender(
  mirror: Mirror,
  clock: { now(): number },
  factory: (c: Channel) => Promise<ChannelTransport>,
) {
  return new OutboxSender({
    store: mirror.delivery,
    transportFor: factory,
    now: () => clock.now(),
    alertSettings: () => mirror.getAlertSettings(),
    random: () => 0.5,
  });
}

describe('the outbox', () => {
  it('writes one row per matching channel in the alert’s transaction, and none for muted or too-quiet alerts', () => {
    const { mirror, writeHealth } = world(2);
    const team = mirror.delivery.addChannel(webhookInput('team'));
    mirror.delivery.addChannel(webhookInput('pager', { minSeverity: 'critical' }));
    const other = mirror.upsertAccount({ label: 'Other', baseUrl: 'https://other.example/api/v1' });
    mirror.delivery.addChannel(webhookInput('other-only', { accountId: other.id }));

    const written = writeHealth(0, false, '2025-03-01T10:00:00Z');
    const alert = written.alerts.find((a) => a.rule === 'protocol_disconnected')!;
    expect(alert.severity).toBe('critical');
    const due = (name: string) => mirror.delivery.due(mirror.delivery.findChannel(name)!.id, '9999');
    expect(due('team').map((r) => [r.type, r.alert.id])).toEqual(
      written.alerts.filter((a) => a.severity !== 'info').map((a) => ['alert.raised', a.id]),
    );
    expect(due('pager').map((r) => r.alert.rule)).toEqual(['protocol_disconnected']);
    expect(due('other-only')).toEqual([]);
    // The same event has one id on every channel.
    expect(due('pager')[0]!.eventId).toBe(due('team').find((r) => r.alert.id === alert.id)!.eventId);
    expect(mirror.delivery.getChannel(team.id)!.queued).toBe(due('team').length);
  });

  it('sends a resolved message only to channels that were told of the alert, and no "connected again" notice', () => {
    const { mirror, clock, writeHealth } = world(1);
    mirror.delivery.addChannel(webhookInput('team', { minSeverity: 'info' }));
    writeHealth(0, false, '2025-03-01T10:00:00Z');
    mirror.delivery.addChannel(webhookInput('late', { minSeverity: 'info' }));
    clock.set('2025-03-01T11:00:00Z');
    const back = writeHealth(0, true, '2025-03-01T11:00:00Z');
    expect(back.alerts.map((a) => a.rule)).toContain('protocol_restored');
    const rows = mirror.delivery.due(mirror.delivery.findChannel('team')!.id, '9999');
    expect(rows.filter((r) => r.alert.rule === 'protocol_disconnected').map((r) => r.type)).toEqual([
      'alert.raised',
      'alert.resolved',
    ]);
    expect(rows.some((r) => r.alert.rule === 'protocol_restored')).toBe(false);
    expect(mirror.delivery.due(mirror.delivery.findChannel('late')!.id, '9999')).toEqual([]);
  });
});

describe('the outbox sender', () => {
  it('sends a storm of one pass as one message per channel, listing every domain, and never again', async () => {
    const { mirror, clock, writeHealth } = world(200);
    mirror.delivery.addChannel(webhookInput('team', { minSeverity: 'critical' }));
    mirror.delivery.addChannel(webhookInput('ops', { minSeverity: 'critical' }));
    const t = transports();
    const s = sender(mirror, clock, t.factory);
    let release!: () => void;
    const pass = s.hold(new Promise<void>((r) => (release = r)));
    for (let i = 0; i < 200; i++) writeHealth(i, false, '2025-03-01T10:00:00Z');
    // While the pass runs, nothing goes out.
    expect(await s.round()).toMatchObject({ sent: 0, held: 400 });
    release();
    await pass;
    // A storm keeps coming: gathered until none came for 20 s.
    clock.set('2025-03-01T10:00:19Z');
    expect(await s.round()).toMatchObject({ sent: 0, held: 400 });
    clock.set('2025-03-01T10:00:20Z');
    expect(await s.round()).toMatchObject({ sent: 400, failed: 0 });
    expect(t.sent.map((x) => x.channel).sort()).toEqual(['ops', 'team']);
    const message = t.sent[0]!.message;
    expect(message.type).toBe('alert.raised');
    expect(new Set(message.alerts.map((a) => a.domain)).size).toBe(200);
    expect(new Set(message.alerts.map((a) => a.eventId)).size).toBe(200);
    expect(await s.round()).toMatchObject({ sent: 0 });
    expect(t.sent).toHaveLength(2);
  });

  it('retries a failing channel with backoff under the same message id, while the other channel delivers', async () => {
    const { mirror, clock, writeHealth } = world(3);
    mirror.delivery.addChannel(webhookInput('down', { minSeverity: 'critical' }));
    mirror.delivery.addChannel(webhookInput('up', { minSeverity: 'critical' }));
    const t = transports();
    t.failing.add('down');
    const s = sender(mirror, clock, t.factory);
    for (let i = 0; i < 3; i++) writeHealth(i, false, '2025-03-01T10:00:00Z');
    expect(await s.round({ ignoreGather: true })).toMatchObject({ sent: 3, failed: 3 });
    const down = mirror.delivery.findChannel('down')!;
    expect(down.lastError).toBe('down is down');
    expect(down.queued).toBe(3);
    const firstId = mirror.delivery.due(down.id, '9999')[0]!.batchId;
    // New alerts after the failure do not join the batch already tried.
    clock.set('2025-03-01T10:00:10Z');
    writeHealth(0, true, '2025-03-01T10:00:10Z');
    // Backing off: 30 s (× 0.8–1.2) after the first failure nothing is tried.
    expect(await s.round({ ignoreGather: true })).toMatchObject({ failed: 0 });
    t.failing.delete('down');
    clock.set('2025-03-01T10:00:40Z');
    await s.round();
    const toDown = t.sent.filter((x) => x.channel === 'down').map((x) => x.message);
    expect(toDown.map((m) => [m.id, m.type, m.alerts.length])).toEqual([
      [firstId, 'alert.raised', 3],
      [toDown[1]!.id, 'alert.resolved', 1],
    ]);
    expect(mirror.delivery.findChannel('down')!).toMatchObject({ queued: 0, lastError: null });
    expect(mirror.delivery.findChannel('down')!.lastSuccessAt).toBe('2025-03-01T10:00:40.000Z');
  });

  it('a storm that keeps coming goes out when its oldest alert waited 5 minutes, then the rest when it ends', async () => {
    const { mirror, clock, writeHealth } = world(40);
    mirror.delivery.addChannel(webhookInput('team', { minSeverity: 'critical' }));
    const t = transports();
    const s = sender(mirror, clock, t.factory);
    // One domain every 10 s, as a watching sync finds them one poll at a time.
    for (let i = 0; i < 40; i++) {
      const at = new Date(Date.parse(START) + i * 10_000).toISOString();
      clock.set(at);
      writeHealth(i, false, at);
      await s.round();
    }
    clock.set(new Date(Date.parse(START) + 39 * 10_000 + 20_000).toISOString());
    await s.round();
    expect(t.sent.map((x) => x.message.alerts.length)).toEqual([31, 9]);
  });

  it('a lone alert’s message id is its event id', async () => {
    const { mirror, clock, writeHealth } = world(1);
    const ch = mirror.delivery.addChannel(webhookInput('team', { minSeverity: 'critical' }));
    const t = transports();
    writeHealth(0, false, '2025-03-01T10:00:00Z');
    const eventId = mirror.delivery.due(ch.id, '9999')[0]!.eventId;
    await sender(mirror, clock, t.factory).round({ ignoreGather: true });
    expect(t.sent[0]!.message.id).toBe(eventId);
    expect(t.sent[0]!.message.alerts[0]).toMatchObject({ eventId, domain: 'd0.example', protocol: 'spf' });
  });

  it('quiet hours hold warnings but not criticals, unless the channel chose to hold criticals too', async () => {
    const { mirror, clock, writeHealth } = world(1);
    mirror.setAlertSettings({ quietHours: { startHour: 22, endHour: 7 }, timeZone: 'UTC' });
    mirror.delivery.addChannel(webhookInput('loud'));
    mirror.delivery.addChannel(webhookInput('hush', { holdCriticals: true }));
    clock.set('2025-03-01T23:00:00Z');
    const w = writeHealth(0, false, '2025-03-01T23:00:00Z');
    // A protocol lost (critical), the health regressed and the score derived from it dropped (warnings).
    expect(w.alerts.map((a) => a.severity).sort()).toEqual(['critical', 'warning', 'warning']);
    const t = transports();
    const s = sender(mirror, clock, t.factory);
    await s.round({ ignoreGather: true });
    expect(t.sent.map((x) => [x.channel, x.message.alerts.map((a) => a.severity)])).toEqual([
      ['loud', ['critical']],
    ]);
    clock.set('2025-03-02T07:00:00Z');
    await s.round();
    expect(t.sent.map((x) => [x.channel, x.message.alerts.map((a) => a.severity).sort()])).toEqual([
      ['loud', ['critical']],
      ['hush', ['critical', 'warning', 'warning']],
      ['loud', ['warning', 'warning']],
    ]);
  });

  it('the user’s “hold criticals too” (Settings) holds criticals on every channel until quiet hours end', async () => {
    const { mirror, clock, writeHealth } = world(1);
    mirror.setAlertSettings({
      quietHours: { startHour: 22, endHour: 7 },
      timeZone: 'Europe/Paris',
      quietHoldsCriticals: true,
    });
    mirror.delivery.addChannel(webhookInput('team', { minSeverity: 'critical' }));
    clock.set('2025-03-01T22:30:00Z'); // 23:30 in Paris
    writeHealth(0, false, '2025-03-01T22:30:00Z');
    const t = transports();
    const s = sender(mirror, clock, t.factory);
    expect(await s.round({ ignoreGather: true })).toMatchObject({ sent: 0, held: 1 });
    clock.set('2025-03-02T05:59:00Z'); // 06:59 in Paris
    expect(await s.round({ ignoreGather: true })).toMatchObject({ sent: 0, held: 1 });
    clock.set('2025-03-02T06:00:00Z'); // 07:00: quiet hours end, nothing was lost
    expect(await s.round()).toMatchObject({ sent: 1 });
    expect(t.sent.map((x) => x.message.alerts.map((a) => a.severity))).toEqual([['critical']]);
    // Unticked again: the next night the record comes back and goes again — both said at once.
    mirror.setAlertSettings({ quietHoldsCriticals: false });
    clock.set('2025-03-02T22:30:00Z');
    writeHealth(0, true, '2025-03-02T22:20:00Z');
    writeHealth(0, false, '2025-03-02T22:30:00Z');
    await s.round({ ignoreGather: true });
    expect(t.sent.map((x) => [x.message.type, x.message.alerts.map((a) => a.severity)])).toEqual([
      ['alert.raised', ['critical']],
      ['alert.resolved', ['critical']],
      ['alert.raised', ['critical']],
    ]);
  });

  it('a 200-domain storm found by a watching sync’s polls goes out as two messages per channel, each domain once', async () => {
    // sync --watch reads each domain's health and failed sources on its 5 s ticks, within the default budget
    // (54 requests a minute for sync, 2 per domain): 27 domains a minute, so 200 disconnections arrive over
    // about 7.4 minutes. The sender gathers while they keep coming, up to 5 minutes for the oldest.
    const { mirror, clock, writeHealth } = world(200);
    mirror.delivery.addChannel(webhookInput('team', { minSeverity: 'critical' }));
    mirror.delivery.addChannel(webhookInput('ops', { minSeverity: 'critical' }));
    const t = transports();
    const s = sender(mirror, clock, t.factory);
    const start = Date.parse(START);
    const sentAt = new Map<number, number>();
    let found = 0;
    for (let ms = 0; ms <= 15 * 60_000; ms += 5_000) {
      clock.set(new Date(start + ms).toISOString());
      while (found < 200 && (found * 60_000) / 27 <= ms)
        writeHealth(found++, false, new Date(clock.now()).toISOString());
      const before = t.sent.length;
      await s.round();
      if (t.sent.length > before) sentAt.set(ms / 1000, t.sent.length - before);
    }
    for (const channel of ['team', 'ops']) {
      const messages = t.sent.filter((x) => x.channel === channel).map((x) => x.message);
      expect(messages.map((m) => m.type)).toEqual(['alert.raised', 'alert.raised']);
      const spf = messages.flatMap((m) => m.alerts.filter((a) => a.rule === 'protocol_disconnected'));
      expect(spf.map((a) => a.domain).sort()).toEqual(
        Array.from({ length: 200 }, (_, i) => `d${i}.example`).sort(),
      );
    }
    // The first when the oldest waited 5 minutes (what came by then), the rest 20 s after the last one came.
    expect([...sentAt.keys()]).toEqual([300, 465]);
  });

  it('a gathered message goes when its quiet time ends, not a poll later', async () => {
    vi.useFakeTimers({ now: Date.parse(START) });
    try {
      const { mirror, writeHealth } = world(1);
      mirror.delivery.addChannel(webhookInput('team', { minSeverity: 'critical' }));
      const t = transports();
      const s = new OutboxSender({
        store: mirror.delivery,
        transportFor: t.factory,
        now: () => Date.now(),
        alertSettings: () => mirror.getAlertSettings(),
        pollMs: 60 * 60_000,
      });
      s.start();
      writeHealth(0, false, new Date(Date.now()).toISOString());
      s.kick();
      await vi.advanceTimersByTimeAsync(19_000);
      expect(t.sent).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1_100);
      expect(t.sent.map((x) => x.message.alerts[0]!.rule)).toEqual(['protocol_disconnected']);
      await s.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
