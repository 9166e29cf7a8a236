/**
 * A route's own group wait (Alertmanager's group_wait) on a fake clock: the route's first message about new
 * alerts waits its seconds from the first of them, and whatever the route raised meanwhile goes in that one
 * message; a route with 0 s sends at once; a route without one keeps the sender's gathering (20 s of quiet).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROUTE } from '../../../../main/core/mirror/routing.ts';
import { openMirror } from '../../../support/openMirror.ts';
import { fakeClock, health } from '../mirror/payloads.ts';
import { recordingOutbox, webhookChannel, type Sent } from './recordingOutbox.ts';

const T0 = '2025-03-01T10:00:00Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const FQDNS = ['a.example', 'b.example', 'c.example', 'd.example'];

function world(groupWait: { slow: number | null; pager: number | null }) {
  const clock = fakeClock(T0);
  const mirror = openMirror(':memory:', { clock });
  const account = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://app.example.net/api/v1' });
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: FQDNS.map((fqdn, i) => ({ id: 100 + i, fqdn, status: 'active', group_id: null })),
    fetchedAt: T0,
  });
  const spf = (fqdn: string, ok: boolean, when: string) => {
    const i = FQDNS.indexOf(fqdn);
    mirror.writeSignal({
      accountId: account.id,
      domainId: 100 + i,
      signal: 'health',
      payload: { ...health(when, { spf: ok }), domain_id: 100 + i, fqdn },
      fetchedAt: when,
    });
  };
  for (const fqdn of FQDNS) spf(fqdn, true, '2025-03-01T09:00:00Z');
  const slow = mirror.delivery.addChannel(webhookChannel('slow'));
  const pager = mirror.delivery.addChannel(webhookChannel('pager'));
  mirror.routes.replace([
    {
      ...DEFAULT_ROUTE,
      name: 'Pager',
      isDefault: false,
      matchers: { domain: 'd.example' },
      channelIds: [pager.id],
      groupWaitSeconds: groupWait.pager,
    },
    {
      ...DEFAULT_ROUTE,
      name: 'Slow',
      isDefault: false,
      channelIds: [slow.id],
      groupWaitSeconds: groupWait.slow,
    },
    DEFAULT_ROUTE,
  ]);
  const { sent, sender } = recordingOutbox(mirror, clock);
  /** Moves the clock to `seconds` after T0 and lets the sender look (as its poll would). */
  const look = async (seconds: number) => {
    clock.set(at(seconds));
    await sender.round();
  };
  const down = (fqdn: string, seconds: number) => {
    clock.set(at(seconds));
    spf(fqdn, false, at(seconds));
  };
  return { sent, look, down };
}

/** The domains each message to a channel named, message by message. */
const messages = (sent: Sent[], channel: string) =>
  sent
    .filter((s) => s.channel === channel && s.message.type === 'alert.raised')
    .map((s) =>
      s.message.alerts
        .filter((a) => a.rule === 'protocol_disconnected')
        .map((a) => a.domain)
        .sort(),
    );

describe('a route’s group wait', () => {
  it('holds the route’s first message for its seconds and sends what came meanwhile with it', async () => {
    const { sent, look, down } = world({ slow: 60, pager: null });
    down('a.example', 0);
    await look(10);
    down('b.example', 30);
    await look(45);
    // 55 s of quiet would have sent it under the sender's 20 s gathering: the route asked for 60 s.
    await look(55);
    expect(messages(sent, 'slow')).toEqual([]);
    down('c.example', 58);
    await look(61);
    expect(messages(sent, 'slow')).toEqual([['a.example', 'b.example', 'c.example']]);
  });

  it('sends at once with 0 s, while a route without one gathers as the sender does', async () => {
    const { sent, look, down } = world({ slow: null, pager: 0 });
    down('d.example', 0);
    down('a.example', 0);
    await look(0);
    expect(messages(sent, 'pager')).toEqual([['d.example']]);
    expect(messages(sent, 'slow')).toEqual([]);
    await look(19);
    expect(messages(sent, 'slow')).toEqual([]);
    await look(21);
    expect(messages(sent, 'slow')).toEqual([['a.example']]);
  });
});
