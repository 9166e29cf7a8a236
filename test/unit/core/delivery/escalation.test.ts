/**
 * Escalation and repeat on a fake clock: a critical still open and unacknowledged after the route's minutes
 * goes to the escalation channel, once; an acknowledged one and a silenced one never do; reminders go every
 * repeat interval while open, one per interval however long the sender slept, up to the cap, and stop
 * once acknowledged. Remembered in the mirror: a restart does not escalate twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_REPEATS } from '../../../../main/core/mirror/escalation.ts';
import { lifecycleSweep } from '../../../../main/core/delivery/lifecycleRound.ts';
import { OutboxSender } from '../../../../main/core/delivery/outboxSender.ts';
import type { Route } from '../../../../main/core/mirror/routing.ts';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { fakeClock, health } from '../mirror/payloads.ts';
import { recordingOutbox, webhookChannel, type Sent } from './recordingOutbox.ts';

const dir = mkdtempSync(join(tmpdir(), 'authwatch-escalation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = '2025-03-01T10:00:00Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const FQDNS = ['a.example', 'b.example', 'c.example'];

function world(file = ':memory:', clock = fakeClock(T0)) {
  const mirror = openMirror(file, { clock });
  const { sent, sender } = recordingOutbox(mirror, clock);
  return { mirror, clock, sent, sender };
}

function seed(mirror: Mirror, repeatMinutes: number | null, before?: () => void) {
  const account = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://app.example.net/api/v1' });
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: FQDNS.map((fqdn, i) => ({ id: 100 + i, fqdn, status: 'active', group_id: null })),
    fetchedAt: T0,
  });
  const spf = (i: number, ok: boolean, when: string) =>
    mirror.writeSignal({
      accountId: account.id,
      domainId: 100 + i,
      signal: 'health',
      payload: { ...health(when, { spf: ok }), domain_id: 100 + i, fqdn: FQDNS[i]! },
      fetchedAt: when,
    });
  FQDNS.forEach((_, i) => spf(i, true, '2025-03-01T09:00:00Z'));
  const team = mirror.delivery.addChannel(webhookChannel('team'));
  const pager = mirror.delivery.addChannel(webhookChannel('pager'));
  const route: Omit<Route, 'id'> = {
    name: 'Team',
    matchers: {},
    channelIds: [team.id],
    continue: false,
    isDefault: false,
    groupWaitSeconds: null,
    silenceEvents: false,
    repeatMinutes,
    escalateAfterMinutes: 30,
    escalateTo: [pager.id],
  };
  mirror.routes.replace([
    route,
    {
      ...route,
      name: 'Default',
      channelIds: null,
      isDefault: true,
      repeatMinutes: null,
      escalateAfterMinutes: null,
      escalateTo: [],
    },
  ]);
  before?.();
  const disconnected = FQDNS.map((_, i) =>
    spf(i, false, T0).alerts.find((a) => a.rule === 'protocol_disconnected')!,
  );
  return { disconnected };
}

const of = (sent: Sent[], channel: string, type: string) =>
  sent
    .filter((s) => s.channel === channel && s.message.type === type)
    .flatMap((s) => s.message.alerts.filter((a) => a.rule === 'protocol_disconnected').map((a) => a.domain));

describe('escalation', () => {
  it('sends an unacknowledged critical to the escalation channel after N minutes — never an acknowledged or silenced one', async () => {
    const { mirror, clock, sent, sender } = world();
    const { disconnected } = seed(mirror, null, () =>
      mirror.silences.add(
        { matchers: { domain: 'c.example' }, reason: 'planned', startsAt: T0, endsAt: at(120) },
        'ops',
        T0,
      ),
    );
    await sender.flush(5_000);
    expect(of(sent, 'team', 'alert.raised').sort()).toEqual(['a.example', 'b.example']);

    clock.set(at(10));
    mirror.acknowledge(disconnected[1]!.id, { actor: 'alice', note: 'on it' });
    clock.set(at(29));
    await sender.flush(5_000);
    expect(of(sent, 'pager', 'alert.escalated')).toEqual([]);

    clock.set(at(31));
    await sender.flush(5_000);
    clock.set(at(60));
    await sender.flush(5_000);
    expect(of(sent, 'pager', 'alert.escalated')).toEqual(['a.example']);
    // The escalation channel now hears how it ends.
    expect(sent.at(-1)!.message.type).toBe('alert.escalated');
  });

  it('is remembered in the mirror: a restart after the escalation does not send it again', async () => {
    const file = join(dir, 'restart.sqlite');
    const first = world(file);
    seed(first.mirror, null);
    first.clock.set(at(31));
    await first.sender.flush(5_000);
    first.mirror.close();
    const second = world(file, fakeClock(at(45)));
    await second.sender.flush(5_000);
    expect(
      [...of(first.sent, 'pager', 'alert.escalated'), ...of(second.sent, 'pager', 'alert.escalated')].sort(),
    ).toEqual(['a.example', 'b.example', 'c.example']);
    second.mirror.close();
  });

  it('is not sent again when the table is saved for an unrelated change (routes keep their ids)', async () => {
    const { mirror, clock, sent, sender } = world();
    seed(mirror, 60);
    clock.set(at(31));
    await sender.flush(5_000);
    expect(of(sent, 'pager', 'alert.escalated')).toHaveLength(3);
    // Someone adds a route for another domain above the others and saves the whole table, as Settings does.
    const table = mirror.routes.list();
    const other = { ...table[0]!, name: 'Other', matchers: { domain: 'z.example' }, escalateTo: [] };
    mirror.routes.replace([{ ...other, id: undefined }, ...table]);
    expect(mirror.routes.list().map((r) => r.name)).toEqual(['Other', 'Team', 'Default']);
    clock.set(at(45));
    await sender.flush(5_000);
    clock.set(at(61));
    await sender.flush(5_000);
    expect(of(sent, 'pager', 'alert.escalated')).toHaveLength(3);
    // …and the reminders count on from what was sent: one each at the hour, not a fresh series.
    expect(of(sent, 'team', 'alert.repeated')).toHaveLength(3);
  });
});

describe('the sweep looks only at what is due', () => {
  it('still escalates at once when the table is saved with a shorter wait, or a silence ends early', async () => {
    const { mirror, clock, sent, sender } = world();
    let silence = 0;
    seed(mirror, null, () => {
      silence = mirror.silences.add(
        { matchers: { domain: 'c.example' }, reason: 'planned', startsAt: T0, endsAt: at(120) },
        'ops',
        T0,
      ).id;
    });
    clock.set(at(10));
    await sender.flush(5_000);
    // Nothing was due before 30 min (and c.example not before 120) when the sweep last looked.
    const [team, fallback] = mirror.routes.list();
    mirror.routes.replace([{ ...team!, escalateAfterMinutes: 5 }, fallback!]);
    clock.set(at(11));
    await sender.flush(5_000);
    expect(of(sent, 'pager', 'alert.escalated').sort()).toEqual(['a.example', 'b.example']);
    mirror.silences.expire(silence, 'ops', at(12));
    clock.set(at(12));
    await sender.flush(5_000);
    expect(of(sent, 'pager', 'alert.escalated').sort()).toEqual(['a.example', 'b.example', 'c.example']);
  });
});

describe('an escalation to Alertmanager', () => {
  it('is re-sent with the channel’s open alerts, so Alertmanager does not let it expire', async () => {
    const clock = fakeClock(T0);
    const mirror = openMirror(':memory:', { clock });
    const { disconnected } = seed(mirror, null, () => {
      const am = mirror.delivery.addChannel({
        ...webhookChannel('am', 'critical'),
        config: { kind: 'alertmanager', url: 'http://127.0.0.1:9', resendSeconds: 60 },
      });
      const [team, fallback] = mirror.routes.list();
      mirror.routes.replace([{ ...team!, escalateTo: [am.id] }, fallback!]);
    });
    const resent: string[][] = [];
    const sender = new OutboxSender({
      store: mirror.delivery,
      transportFor: async () => ({
        async send() {},
        async resend(alerts) {
          resent.push(alerts.filter((a) => a.rule === 'protocol_disconnected').map((a) => a.domain!));
        },
      }),
      now: () => clock.now(),
      alertSettings: () => mirror.getAlertSettings(),
      beforeRound: lifecycleSweep(mirror, () => clock.now()),
    });
    mirror.acknowledge(disconnected[2]!.id, { actor: 'alice', note: null });
    clock.set(at(31));
    await sender.flush(5_000);
    clock.set(at(33));
    await sender.flush(5_000);
    expect(resent.at(-1)!.sort()).toEqual(['a.example', 'b.example']);
  });
});

describe('repeat', () => {
  it('reminds the route’s channels every interval while open, once per interval missed, up to the cap, and stops when acknowledged', async () => {
    const { mirror, clock, sent, sender } = world();
    const { disconnected } = seed(mirror, 60);
    await sender.flush(5_000);
    clock.set(at(59));
    await sender.flush(5_000);
    expect(of(sent, 'team', 'alert.repeated')).toEqual([]);
    clock.set(at(61));
    await sender.flush(5_000);
    expect(of(sent, 'team', 'alert.repeated').sort()).toEqual(['a.example', 'b.example', 'c.example']);
    // Asleep for five hours: one reminder each, not five.
    clock.set(at(6 * 60 + 1));
    await sender.flush(5_000);
    expect(of(sent, 'team', 'alert.repeated')).toHaveLength(6);
    mirror.acknowledge(disconnected[0]!.id, { actor: 'alice', note: null });
    for (let h = 7; h <= 30; h++) {
      clock.set(at(h * 60 + 1));
      await sender.flush(5_000);
    }
    const reminders = of(sent, 'team', 'alert.repeated');
    expect(reminders.filter((d) => d === 'a.example')).toHaveLength(2);
    expect(reminders.filter((d) => d === 'b.example')).toHaveLength(MAX_REPEATS - 4);
    expect(sent.find((s) => s.message.type === 'alert.repeated')!.message.alerts[0]).toBeDefined();
  });
});
