/**
 * Email through a real SMTP server (smtp-server, STARTTLS and AUTH) whose mails are parsed with mailparser:
 * the test message, an SPF removal as one mail with a text and an HTML part in the user's time zone, its
 * repair as its own "resolved" mail, a wrong password kept queued with the error in words, and a storm of
 * domains in one pass as ONE mail listing them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
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

const PASSWORD = 'smtp-pass-7f3a9c';
const SPF = 'v=spf1 ip4:192.0.2.0/24 -all';

describe('the email channel against a real SMTP server', () => {
  let world: EngineWorld;
  let smtp: SmtpReceiver;
  let engine: TestEngine;
  let accountId: number;

  beforeAll(async () => {
    world = await startWorld(['mail.example']);
    smtp = await startSmtpReceiver({ user: 'ops', password: PASSWORD });
    engine = openEngine(world, {
      delivery: { secretStore: memorySecretStore(), smtpTls: { ca: TEST_SMTP_CA } },
    });
    accountId = await addSyncedAccount(engine, world);
    engine.mirror.setAlertSettings({ timeZone: 'America/New_York' });
  });
  afterAll(async () => {
    await engine?.close();
    await smtp?.close();
    await world?.close();
  });

  const pass = async () => {
    await engine.app.holdDeliveries(engine.app.syncNow({ accountId }));
    return engine.app.flushDeliveries(20_000);
  };

  it('sends a test, an alert and its resolution as separate mails over STARTTLS with AUTH', async () => {
    const saved = await engine.app.channels.add({
      kind: 'email',
      name: 'ops-mail',
      smtp: `smtp://ops@127.0.0.1:${smtp.port}`,
      from: 'authwatch@example.net',
      to: ['ops@example.net', 'oncall@example.net'],
      password: PASSWORD,
      minSeverity: 'critical',
    });
    expect(saved.notices).toEqual([]);
    expect(await engine.app.channels.test(saved.channel.id)).toEqual({ ok: true });
    await smtp.waitFor(1);
    expect(smtp.mails[0]).toMatchObject({
      secure: true,
      user: 'ops',
      to: ['ops@example.net', 'oncall@example.net'],
    });
    expect(smtp.mails[0]!.mail.subject).toBe('Authwatch: test message');

    world.svc.clock.advance(60_000);
    await publish(world.svc, 'mail.example', 'spf', null);
    await scan(world.svc);
    expect(await pass()).toMatchObject({ failed: 0 });
    expect(smtp.mails).toHaveLength(2);
    const { mail } = smtp.mails[1]!;
    expect(mail.subject).toMatch(/^\[Critical\] /);
    expect(mail.subject).toContain('mail.example');
    expect(mail.text).toContain('SPF record of mail.example disconnected');
    expect(mail.text).toMatch(/First seen: \d+ \w+ \d{4}, \d\d:\d\d:\d\d (EST|EDT|GMT-[45])/);
    expect(mail.html || '').toContain('SPF record of mail.example disconnected');
    expect(`${mail.text}${mail.html || ''}`).not.toMatch(/https?:\/\//);
    expect(mail.headers.get('x-authwatch-event-id')).toEqual(expect.any(String));

    world.svc.clock.advance(60_000);
    await publish(world.svc, 'mail.example', 'spf', SPF);
    await scan(world.svc);
    await pass();
    const resolved = smtp.mails.slice(2).map((m) => m.mail.subject);
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatch(/^\[Resolved\] /);
    expect(smtp.mails[2]!.mail.text).toContain('Resolved: ');

    // The password is in the secret store only: not in the mirror's file.
    expect(readFileSync(join(world.dir, 'mirror.db')).includes(PASSWORD)).toBe(false);
  }, 120_000);

  it('keeps mail queued with the error in words when the server refuses the password', async () => {
    const bad = await engine.app.channels.add({
      kind: 'email',
      name: 'bad-mail',
      smtp: `smtp://ops@127.0.0.1:${smtp.port}`,
      from: 'authwatch@example.net',
      to: ['ops@example.net'],
      password: 'wrong-password-123',
      minSeverity: 'critical',
    });
    const before = smtp.mails.length;
    world.svc.clock.advance(60_000);
    await publish(world.svc, 'mail.example', 'spf', null);
    await scan(world.svc);
    await engine.app.holdDeliveries(engine.app.syncNow({ accountId }));
    const left = await engine.app.flushDeliveries(3_000);
    expect(left.failed).toBeGreaterThan(0);
    const state = engine.app.channels.list().find((c) => c.id === bad.channel.id)!;
    expect(state.lastError).toMatch(/Invalid (login|username or password)/i);
    expect(state.lastError).not.toContain('wrong-password-123');
    expect(state.queued).toBeGreaterThan(0);
    // The working channel was not held up.
    expect(smtp.mails.length).toBe(before + 1);
    await engine.app.channels.remove(bad.channel.id);
  }, 120_000);
});

// 60 domains here keep the test short; the unit test of the sender groups 200 the same way.
describe('a storm of 60 domains', () => {
  it('sends one mail per pass listing every domain, not 60', async () => {
    const fqdns = Array.from({ length: 60 }, (_, i) => `storm${i}.example`);
    const world = await startWorld(fqdns);
    const smtp = await startSmtpReceiver();
    const engine = openEngine(world, { delivery: { secretStore: memorySecretStore() } });
    try {
      const accountId = await addSyncedAccount(engine, world);
      await engine.app.channels.add({
        kind: 'email',
        name: 'storm-mail',
        smtp: `smtp://127.0.0.1:${smtp.port}?tls=none`,
        from: 'authwatch@example.net',
        to: ['ops@example.net'],
        minSeverity: 'critical',
      });
      world.svc.clock.advance(60_000);
      for (const fqdn of fqdns) await publish(world.svc, fqdn, 'spf', null);
      await scan(world.svc);
      await engine.app.holdDeliveries(engine.app.syncNow({ accountId }));
      await engine.app.flushDeliveries(20_000);
      const disconnected = engine.mirror
        .listAlerts({ open: true, rule: 'protocol_disconnected', limit: 1000 })
        .filter((a) => a.fqdn?.startsWith('storm'));
      expect(disconnected).toHaveLength(60);
      expect(smtp.mails).toHaveLength(1);
      const { mail } = smtp.mails[0]!;
      expect(mail.subject).toMatch(/on 60 domains \(storm0\.example, /);
      for (const fqdn of fqdns.slice(0, 50)) expect(mail.text).toContain(`  - ${fqdn}\n`);
      expect(mail.text).toContain('… and 10 more');
    } finally {
      await engine.close();
      await smtp.close();
      await world.close();
    }
  }, 180_000);
});
