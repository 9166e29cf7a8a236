/**
 * The digest runner over a mirror, a fake clock and a fake mail transport: nothing owed for a slot that
 * passed before the schedule was set, a failed send kept owed with the error in words and retried with
 * backoff (then sent once), and a schedule moved after this week's digest went waiting for next week.
 */
import { describe, expect, it } from 'vitest';
import { DigestRunner } from '../../../../main/core/delivery/digestRunner.ts';
import type { PlainMail } from '../../../../main/core/delivery/transport.ts';
import { manualScheduler } from '../../../../main/core/sync/scheduler.ts';
import { mirrorWithDomain } from '../mirror/payloads.ts';

function setUp() {
  const { mirror, clock, accountId } = mirrorWithDomain();
  const channel = mirror.delivery.addChannel({
    name: 'mail',
    minSeverity: 'warning',
    accountId: null,
    holdCriticals: false,
    config: {
      kind: 'email',
      host: 'mail.example.net',
      port: 587,
      tls: 'starttls',
      from: 'a@example.net',
      to: ['b@example.net'],
    },
  });
  const sent: PlainMail[] = [];
  let failing: string | null = null;
  const ticks = manualScheduler();
  const runner = new DigestRunner({
    mirror,
    now: clock.now,
    scheduler: ticks,
    transportFor: async () => ({
      send: async () => undefined,
      sendMail: async (mail) => {
        if (failing) throw new Error(failing);
        sent.push(mail);
      },
    }),
  });
  runner.start();
  const at = (iso: string) => {
    clock.set(iso);
    return ticks.tick();
  };
  return {
    mirror,
    clock,
    accountId,
    channel,
    sent,
    runner,
    at,
    fail: (why: string | null) => (failing = why),
  };
}

describe('the weekly digest runner', () => {
  // mirrorWithDomain's clock stands at Saturday 1 March 2025, 10:00 UTC.
  it('owes nothing for a slot before the schedule was set; sends the next one once', async () => {
    const t = setUp();
    t.mirror.digests.set(
      { accountId: t.accountId, channelId: t.channel.id, weekday: 6, hour: 9, minute: 0, timeZone: 'UTC' },
      '2025-03-01T10:00:00.000Z',
    );
    await t.at('2025-03-01T10:05:00Z');
    expect(t.sent).toHaveLength(0);
    await t.at('2025-03-08T08:59:00Z');
    expect(t.sent).toHaveLength(0);
    await t.at('2025-03-08T09:00:00Z');
    await t.at('2025-03-08T09:01:00Z');
    expect(t.sent.map((m) => m.subject)).toEqual([
      'Authwatch weekly digest — Acme MSP, week to 8 Mar 2025: no alerts',
    ]);
    expect(t.mirror.digests.get(t.accountId)).toMatchObject({
      lastSlot: '2025-03-08T09:00:00.000Z',
      lastSentAt: '2025-03-08T09:00:00.000Z',
      lastError: null,
    });
  });

  it('keeps a failed digest owed with the error in words, retries with backoff, then sends it once', async () => {
    const t = setUp();
    t.mirror.digests.set(
      {
        accountId: t.accountId,
        channelId: t.channel.id,
        weekday: 1,
        hour: 8,
        minute: 0,
        timeZone: 'Europe/Paris',
      },
      '2025-03-01T10:00:00.000Z',
    );
    t.fail('mail via mail.example.net:587 failed: connection refused');
    await t.at('2025-03-03T07:00:00Z'); // 08:00 in Paris
    expect(t.mirror.digests.get(t.accountId)).toMatchObject({
      attempts: 1,
      lastError: 'weekly digest: mail via mail.example.net:587 failed: connection refused',
      nextAttemptAt: '2025-03-03T07:05:00.000Z',
    });
    expect(t.mirror.delivery.getChannel(t.channel.id)!.lastError).toMatch(/^weekly digest: /);
    t.fail(null);
    await t.at('2025-03-03T07:04:00Z');
    expect(t.sent).toHaveLength(0);
    await t.at('2025-03-03T07:05:00Z');
    await t.at('2025-03-03T07:06:00Z');
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]!.id).toBe(`digest-${t.accountId}-20250303T070000000Z`);
    expect(t.mirror.delivery.getChannel(t.channel.id)!.lastError).toBeNull();
  });

  it('one digest a week: moved to a later day after this week’s went, it waits for next week', async () => {
    const t = setUp();
    const set = (weekday: number, at: string) =>
      t.mirror.digests.set(
        { accountId: t.accountId, channelId: t.channel.id, weekday, hour: 8, minute: 0, timeZone: 'UTC' },
        at,
      );
    set(1, '2025-03-01T10:00:00.000Z');
    await t.at('2025-03-03T08:00:00Z');
    expect(t.sent).toHaveLength(1);
    set(3, '2025-03-04T12:00:00.000Z'); // now Wednesdays
    await t.at('2025-03-05T08:00:00Z');
    expect(t.sent).toHaveLength(1);
    await t.at('2025-03-12T08:00:00Z');
    expect(t.sent).toHaveLength(2);
  });
});
