/**
 * The weekly digest mailed on its schedule through a real SMTP server (smtp-server, STARTTLS + AUTH, parsed
 * with mailparser), on a fake clock: "Mondays at 08:00, Europe/Berlin" over the week clocks go forward (Sunday
 * 29 March 2026), so the mail must arrive at 06:00 UTC, not 07:00 as the week before. Exactly once: a restart
 * after it went sends nothing, and a Monday missed while the app was closed is mailed at the next start, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import { manualScheduler, type ManualScheduler } from '../../../main/core/sync/scheduler.ts';
import { createManualClock } from '../../support/manualClock.ts';
import { startSmtpReceiver, TEST_SMTP_CA, type SmtpReceiver } from '../../support/smtpReceiver.ts';
import {
  addSyncedAccount,
  openEngine,
  publish,
  scan,
  startWorld,
  type EngineWorld,
  type TestEngine,
} from '../../support/engineWorld.ts';

const PASSWORD = 'digest-smtp-pass-51e0';
const MINUTE = 60_000;

describe('the weekly digest, mailed at its slot in the user’s zone', () => {
  let world: EngineWorld;
  let smtp: SmtpReceiver;
  let engine: TestEngine;
  let ticks: ManualScheduler;
  let accountId: number;
  const secrets = memorySecretStore();

  /** The app (re)opened on the same mirror file: its digest check runs at start and on each tick. */
  const open = () => {
    ticks = manualScheduler();
    return openEngine(world, {
      delivery: { secretStore: secrets, smtpTls: { ca: TEST_SMTP_CA }, digestScheduler: ticks },
    });
  };
  /** Moves the fake clock to exactly `until` in steps of at most `stepMs`, ticking the digest check after each step. */
  const walk = async (until: string, stepMs: number) => {
    const end = Date.parse(until);
    for (let t = world.svc.clock.now().getTime(); t < end; t = world.svc.clock.now().getTime()) {
      world.svc.clock.advance(Math.min(stepMs, end - t));
      await ticks.tick();
    }
  };
  const now = () => world.svc.clock.now().toISOString();
  /** Digest mails (the channel also mails the week's alerts as they happen). */
  const digests = () => smtp.mails.filter((m) => m.mail.headers.get('x-authwatch-type') === 'digest');

  beforeAll(async () => {
    // Thursday 26 March 2026, 10:00 UTC (11:00 in Berlin, still on winter time).
    world = await startWorld(['digest.example'], { clock: createManualClock('2026-03-26T10:00:00Z') });
    smtp = await startSmtpReceiver({ user: 'ops', password: PASSWORD });
    engine = open();
    accountId = await addSyncedAccount(engine, world);
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
    await smtp?.close();
    await world?.close();
  });

  it('goes Monday 08:00 Berlin time (06:00 UTC after clocks went forward), once, across a restart', async () => {
    const { channel } = await engine.app.channels.add({
      kind: 'email',
      name: 'weekly',
      smtp: `smtp://ops@127.0.0.1:${smtp.port}`,
      from: 'authwatch@example.net',
      to: ['ops@example.net'],
      password: PASSWORD,
    });
    const saved = await engine.app.saveDigest({
      accountId,
      channelId: channel.id,
      weekday: 1,
      hour: 8,
      minute: 0,
      timeZone: 'Europe/Berlin',
    });
    expect(saved).toMatchObject({
      when: 'Mondays at 08:00 (Europe/Berlin)',
      nextAt: '2026-03-30T06:00:00.000Z',
    });

    // Something for the digest to tell: SPF removed on Friday.
    world.svc.clock.advance(MINUTE);
    await publish(world.svc, 'digest.example', 'spf', null);
    await scan(world.svc);
    await engine.app.syncNow({ accountId });

    // Hour by hour to Monday 05:00 UTC, then minute by minute: nothing before the slot.
    await walk('2026-03-30T05:00:00Z', 60 * MINUTE);
    await walk('2026-03-30T05:59:00Z', MINUTE);
    expect(digests()).toHaveLength(0);
    await walk('2026-03-30T06:00:00Z', MINUTE);
    expect(now()).toBe('2026-03-30T06:00:00.000Z');
    expect(digests()).toHaveLength(1);

    const { mail, secure } = digests()[0]!;
    expect(secure).toBe(true);
    expect(mail.subject).toBe('Authwatch weekly digest — Acme, week to 30 Mar 2026: 3 open alerts');
    expect(mail.text).toContain('23 Mar 2026, 07:00:00 CET to 30 Mar 2026, 08:00:00 CEST');
    expect(mail.text).toContain('digest.example: SPF now failing');
    expect(mail.text).toContain('[critical] SPF record of digest.example disconnected — open');
    expect(mail.html).toContain('Protocols that changed');
    expect(mail.html).toContain('digest.example: SPF now failing');
    expect(`${mail.text}${mail.html || ''}`).not.toMatch(/https?:\/\//);

    // Later that Monday: nothing more. Then the app restarts (same mirror): nothing again.
    await walk('2026-03-30T09:00:00Z', 10 * MINUTE);
    await engine.close();
    engine = open();
    await ticks.tick();
    await walk('2026-03-31T09:00:00Z', 60 * MINUTE);
    expect(digests()).toHaveLength(1);
    const [view] = await engine.app.listDigests();
    expect(view).toMatchObject({
      lastSentAt: '2026-03-30T06:00:00.000Z',
      nextAt: '2026-04-06T06:00:00.000Z',
    });
  }, 60_000);

  it('a Monday missed while the app was closed is mailed at the next start, once', async () => {
    await engine.close();
    // Closed from Tuesday to Wednesday of the following week: the 6 April slot passed unseen.
    world.svc.clock.set('2026-04-08T12:00:00Z');
    engine = open();
    await ticks.tick();
    expect(digests()).toHaveLength(2);
    expect(digests()[1]!.mail.subject).toMatch(/^Authwatch weekly digest — Acme, week to 6 Apr 2026: /);
    await walk('2026-04-09T12:00:00Z', 60 * MINUTE);
    await engine.close();
    engine = open();
    await ticks.tick();
    expect(digests()).toHaveLength(2);
    // Its next one is the coming Monday, still 08:00 in Berlin.
    expect((await engine.app.listDigests())[0]!.nextAt).toBe('2026-04-13T06:00:00.000Z');
    expect(digests().map((m) => m.mail.messageId)).toEqual([
      expect.stringMatching(/^<digest-\d+-20260330T060000000Z@authwatch\.invalid>$/),
      expect.stringMatching(/^<digest-\d+-20260406T060000000Z@authwatch\.invalid>$/),
    ]);
  }, 60_000);
});
