/**
 * Silences in core: an alert a silence matches is raised, recorded and shown but no channel hears of it;
 * when the silence ends (or is expired early) while the alert is still open it is notified then, exactly
 * once — the hold lives in the mirror, so a restart between the end and the send neither loses nor doubles
 * the message. Other domains are untouched, and every change is audited.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { disconnections, recordingOutbox, webhookChannel } from '../delivery/recordingOutbox.ts';
import type { OutgoingMessage } from '../../../../main/core/delivery/message.ts';
import {
  checkSilenceInput,
  parseDuration,
  parseUntil,
  SilenceInputError,
} from '../../../../main/core/alerts/silences.ts';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { fakeClock, health } from '../mirror/payloads.ts';

const dir = mkdtempSync(join(tmpdir(), 'authwatch-silences-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = '2025-03-01T10:00:00Z';
const DOMAINS = [
  { id: 100, fqdn: 'acme.example', status: 'active', group_id: 7, group_name: 'Regional' },
  { id: 101, fqdn: 'other.example', status: 'active', group_id: null },
];

function open(file: string, clock = fakeClock(START)) {
  const mirror = openMirror(file, { clock });
  return { mirror, clock };
}

function seed(mirror: Mirror, clock: { now(): number }) {
  const account = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://app.example.net/api/v1' });
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: DOMAINS,
    fetchedAt: clock.now(),
  });
  for (const d of DOMAINS) writeSpf(mirror, account.id, d.id, true, '2025-03-01T09:00:00Z');
  mirror.delivery.addChannel(webhookChannel('team'));
  return account;
}

function writeSpf(mirror: Mirror, accountId: number, domainId: number, spf: boolean, at: string) {
  const fqdn = DOMAINS.find((d) => d.id === domainId)!.fqdn;
  return mirror.writeSignal({
    accountId,
    domainId,
    signal: 'health',
    payload: { ...health(at, { spf }), domain_id: domainId, fqdn },
    fetchedAt: at,
  });
}

function senderOver(mirror: Mirror, clock: { now(): number }, sent: OutgoingMessage[]) {
  const outbox = recordingOutbox(mirror, clock);
  const flush = outbox.sender.flush.bind(outbox.sender);
  return {
    async flush(ms: number) {
      const result = await flush(ms);
      sent.push(...outbox.sent.splice(0).map((x) => x.message));
      return result;
    },
  };
}

const disconnected = (messages: OutgoingMessage[]) =>
  disconnections(messages.map((message) => ({ channel: '', message })));

describe('a silence', () => {
  it('holds its domain’s alerts back from every channel, and sends them once when it ends while still open', async () => {
    const { mirror, clock } = open(':memory:');
    const account = seed(mirror, clock);
    const silence = mirror.silences.add(
      {
        matchers: { domain: 'ACME.example' },
        reason: 'moving DNS to the new provider',
        startsAt: START,
        endsAt: '2025-03-01T12:00:00Z',
      },
      'ops@acme.example',
      START,
    );
    const sent: OutgoingMessage[] = [];
    const sender = senderOver(mirror, clock, sent);

    clock.set('2025-03-01T10:05:00Z');
    const written = writeSpf(mirror, account.id, 100, false, '2025-03-01T10:05:00Z');
    writeSpf(mirror, account.id, 101, false, '2025-03-01T10:05:00Z');
    const alert = written.alerts.find((a) => a.rule === 'protocol_disconnected')!;
    // Raised, recorded and shown: it is an open alert like any other, marked by the silence.
    expect(mirror.getAlert(alert.id)).toMatchObject({ resolvedAt: null });
    expect(mirror.silences.silencing(alert, '2025-03-01T10:05:00.000Z')).toMatchObject({
      kind: 'silence',
      id: silence.id,
      endsAt: '2025-03-01T12:00:00.000Z',
    });
    // Not the desktop either.
    expect(mirror.pendingDeliveries('2025-03-01T10:06:00Z').map((a) => a.fqdn)).not.toContain('acme.example');

    await sender.flush(5_000);
    expect(disconnected(sent)).toEqual(['alert.raised other.example']);

    clock.set('2025-03-01T11:59:00Z');
    await sender.flush(5_000);
    expect(disconnected(sent)).toEqual(['alert.raised other.example']);

    clock.set('2025-03-01T12:00:30Z');
    await sender.flush(5_000);
    await sender.flush(5_000);
    expect(disconnected(sent)).toEqual(['alert.raised other.example', 'alert.raised acme.example']);
    expect(mirror.silences.isHeld(alert.id)).toBe(false);
    mirror.close();
  });

  it('never notifies an alert that resolved while silenced (nor its resolution)', async () => {
    const { mirror, clock } = open(':memory:');
    const account = seed(mirror, clock);
    mirror.silences.add(
      { matchers: { group: 'regional' }, reason: 'planned', startsAt: START, endsAt: '2025-03-01T12:00:00Z' },
      'ops',
      START,
    );
    const sent: OutgoingMessage[] = [];
    const sender = senderOver(mirror, clock, sent);
    const raised = writeSpf(mirror, account.id, 100, false, '2025-03-01T10:05:00Z');
    const alert = raised.alerts.find((a) => a.rule === 'protocol_disconnected')!;
    // Held by the group's silence (the group is read from the domain's row), not just resolved in time.
    expect(mirror.silences.isHeld(alert.id)).toBe(true);
    writeSpf(mirror, account.id, 101, false, '2025-03-01T10:05:00Z');
    expect(
      mirror.delivery.due(mirror.delivery.findChannel('team')!.id, '9999').map((r) => r.alert.fqdn),
    ).toEqual(expect.arrayContaining(['other.example']));
    writeSpf(mirror, account.id, 100, true, '2025-03-01T10:30:00Z');
    clock.set('2025-03-01T13:00:00Z');
    await sender.flush(5_000);
    expect(disconnected(sent)).toEqual(['alert.raised other.example']);
    mirror.close();
  });

  it('expired early sends what it held at once, exactly once across a restart at the moment it ends', async () => {
    const file = join(dir, 'restart.sqlite');
    const first = open(file);
    const account = seed(first.mirror, first.clock);
    const s = first.mirror.silences.add(
      {
        matchers: { domain: 'acme.example', rule: 'protocol_disconnected' },
        reason: 'r',
        startsAt: START,
        endsAt: '2025-03-02T10:00:00Z',
      },
      'ops',
      START,
    );
    writeSpf(first.mirror, account.id, 100, false, '2025-03-01T10:05:00Z');
    first.clock.set('2025-03-01T10:10:00Z');
    first.mirror.silences.expire(s.id, 'alice', '2025-03-01T10:10:00.000Z');
    // The process dies before any round ran: nothing was queued yet, the hold is still in the file.
    first.mirror.close();

    const second = open(file, fakeClock('2025-03-01T10:11:00Z'));
    const sent: OutgoingMessage[] = [];
    const sender = senderOver(second.mirror, second.clock, sent);
    await sender.flush(5_000);
    second.mirror.close();

    // A third start finds nothing more to send.
    const third = open(file, fakeClock('2025-03-01T10:12:00Z'));
    await senderOver(third.mirror, third.clock, sent).flush(5_000);
    expect(disconnected(sent)).toEqual(['alert.raised acme.example']);
    expect(third.mirror.silences.auditLog().map((e) => [e.action, e.actor])).toEqual([
      ['silence.expired', 'alice'],
      ['silence.created', 'ops'],
    ]);
    third.mirror.close();
  });

  it('refuses a silence without a reason, without a matcher, ending before it starts, or for ever', () => {
    const base = {
      matchers: { domain: 'a.example' },
      reason: 'x',
      startsAt: START,
      endsAt: '2025-03-01T11:00:00Z',
    };
    expect(() => checkSilenceInput({ ...base, reason: '  ' })).toThrow(/needs a reason/);
    expect(() => checkSilenceInput({ ...base, matchers: {} })).toThrow(/at least one matcher/);
    expect(() => checkSilenceInput({ ...base, endsAt: START })).toThrow(SilenceInputError);
    expect(() => checkSilenceInput({ ...base, endsAt: '2026-03-01T11:00:00Z' })).toThrow(/90 days/);
  });

  it('reads “for 2h” and “until mon 08:00” in the user’s zone', () => {
    expect(parseDuration('2h')).toBe(2 * 3600_000);
    expect(parseDuration('1h30m')).toBe(90 * 60_000);
    expect(parseDuration('soon')).toBeNull();
    // Saturday 1 March 2025, 10:00 UTC → Monday 3 March 08:00 in Berlin is 07:00 UTC.
    expect(new Date(parseUntil('mon 08:00', Date.parse(START), 'Europe/Berlin')!).toISOString()).toBe(
      '2025-03-03T07:00:00.000Z',
    );
    expect(new Date(parseUntil('2025-03-01 18:30', Date.parse(START), 'Europe/Berlin')!).toISOString()).toBe(
      '2025-03-01T17:30:00.000Z',
    );
    expect(parseUntil('whenever', Date.parse(START), 'UTC')).toBeNull();
  });
});
