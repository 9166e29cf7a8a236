/**
 * Acknowledgement with a note: who, when and the note are kept as the alert's history; channels told of the
 * open alert get one `alert.acknowledged` update carrying them (a channel never told hears nothing);
 * taking it back makes the alert open and unacknowledged again and says so to the same channels.
 */
import { describe, expect, it } from 'vitest';
import { plainTextOf, subjectOf } from '../../../../main/core/delivery/messageText.ts';
import { openMirror } from '../../../support/openMirror.ts';
import { fakeClock, health } from '../mirror/payloads.ts';
import { recordingOutbox, webhookChannel } from '../delivery/recordingOutbox.ts';
import { ALERT_CATALOGUE } from '../../../../main/core/livechecks/ruleRegistry.ts';

const START = '2025-03-01T10:00:00Z';

function world() {
  const clock = fakeClock(START);
  const mirror = openMirror(':memory:', { clock });
  const account = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://app.example.net/api/v1' });
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: [{ id: 100, fqdn: 'acme.example', status: 'active', group_id: null }],
    fetchedAt: clock.now(),
  });
  const spf = (ok: boolean, at: string) =>
    mirror.writeSignal({
      accountId: account.id,
      domainId: 100,
      signal: 'health',
      payload: { ...health(at, { spf: ok }), domain_id: 100, fqdn: 'acme.example' },
      fetchedAt: at,
    });
  spf(true, '2025-03-01T09:00:00Z');
  const { sent, sender } = recordingOutbox(mirror, clock);
  return { mirror, clock, spf, sent, sender };
}

describe('acknowledging with a note', () => {
  it('keeps who, when and the note, and tells the channels that heard of the alert — once', async () => {
    const { mirror, clock, spf, sent, sender } = world();
    mirror.delivery.addChannel(webhookChannel('pager', 'critical'));
    const raised = spf(false, START).alerts.find((a) => a.rule === 'protocol_disconnected')!;
    await sender.flush(5_000);
    mirror.delivery.addChannel(webhookChannel('late', 'info'));

    clock.set('2025-03-01T10:20:00Z');
    mirror.acknowledge(raised.id, { actor: 'alice@acme.example', note: 'DNS provider ticket #4411' });
    mirror.acknowledge(raised.id, { actor: 'bob', note: 'still on it' }, '2025-03-01T10:25:00Z');
    await sender.flush(5_000);

    const updates = sent.filter((s) => s.message.type === 'alert.acknowledged');
    expect(updates.map((u) => u.channel)).toEqual(['pager']);
    const message = updates[0]!.message;
    expect(message.alerts[0]!.acknowledgement).toEqual({
      by: 'alice@acme.example',
      at: '2025-03-01T10:20:00.000Z',
      note: 'DNS provider ticket #4411',
    });
    expect(subjectOf(message, ALERT_CATALOGUE)).toMatch(/^\[Acknowledged\]/);
    expect(plainTextOf(message, 'UTC')).toContain('Acknowledged by alice@acme.example');
    expect(plainTextOf(message, 'UTC')).toContain('DNS provider ticket #4411');

    expect(mirror.acknowledgements(raised.id)).toEqual([
      {
        action: 'acknowledged',
        at: '2025-03-01T10:20:00.000Z',
        actor: 'alice@acme.example',
        note: 'DNS provider ticket #4411',
      },
      { action: 'acknowledged', at: '2025-03-01T10:25:00.000Z', actor: 'bob', note: 'still on it' },
    ]);
    expect(mirror.getAlert(raised.id)).toMatchObject({
      acknowledgedAt: '2025-03-01T10:20:00.000Z',
      endReason: 'acknowledged',
    });
  });

  it('can be taken back: the alert is open and unacknowledged again, and the channels hear so', async () => {
    const { mirror, spf, sent, sender } = world();
    mirror.delivery.addChannel(webhookChannel('pager', 'critical'));
    const raised = spf(false, START).alerts.find((a) => a.rule === 'protocol_disconnected')!;
    mirror.acknowledge(raised.id, { actor: 'alice', note: null }, '2025-03-01T10:01:00Z');
    const back = mirror.unacknowledge(raised.id, 'bob', '2025-03-01T10:02:00Z');
    expect(back).toMatchObject({ acknowledgedAt: null, endReason: null, endedAt: null, resolvedAt: null });
    expect(mirror.acknowledgements(raised.id).map((e) => `${e.action} ${e.actor}`)).toEqual([
      'acknowledged alice',
      'unacknowledged bob',
    ]);
    await sender.flush(5_000);
    expect(sent.map((s) => s.message.type)).toEqual([
      'alert.raised',
      'alert.acknowledged',
      'alert.unacknowledged',
    ]);
    expect(mirror.silences.auditLog().map((e) => `${e.action} ${e.actor}`)).toEqual([
      'alert.unacknowledged bob',
      'alert.acknowledged alice',
    ]);
  });
});
