/**
 * The end-to-end check, with real processes and servers on 127.0.0.1: `authwatch sync --watch`
 * with three channels — email to smtp-server (STARTTLS, password read from the environment at every run),
 * a signed generic webhook, Debian's Alertmanager. The sandbox removes a domain's SPF → one mail, one signed
 * webhook, one Alertmanager alert; the record returns → one "resolved" each. Prints the time from the DNS
 * change to the mail arriving.
 *
 * The watch's DNS watch asks the service's own zone over DNS (the sandbox's records, on a 127.0.0.1 port), as
 * a server watching real domains asks its resolver. At the pace a user can set in Settings → DNS watch
 * (records with a 5 s TTL asked every 5 s) a change is confirmed by three answers 15 s apart; with
 * AUTHWATCH_E2E_DNS_DEFAULT_PACE=1 the zone's TTL and the watch's floor are the defaults (60 s), which gives the
 * figure a user of the defaults sees.
 *
 * The service runs on a clock that follows the real one, as the watch process does: the status model takes
 * the newest evidence, so a service standing at a fixed date would make its scans look months older than any
 * DNS answer, and at the defaults the watch's answer of the record before a change would outweigh the scan
 * that saw it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../support/openMirror.ts';
import { startZoneDnsServer, type ZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { startAlertmanager, type RunningAlertmanager } from '../../support/alertmanager.ts';
import { cliEnv, runCliProcess, startCli, type RunningCli } from '../../support/cliProcess.ts';
import { createRealTimeClock } from '../../support/manualClock.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtpReceiver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.ts';
import { publish, scan, startWorld, type EngineWorld } from '../../support/engineWorld.ts';

const SECRET = 'e2e-hook-secret-91b2';
const PASSWORD = 'e2e-smtp-pass-44c1';
const SPF = 'v=spf1 ip4:192.0.2.0/24 -all';
const DEFAULT_PACE = process.env.AUTHWATCH_E2E_DNS_DEFAULT_PACE === '1';
const DNS_SECONDS = DEFAULT_PACE ? 60 : 5;
const CA_FILE = fileURLToPath(new URL('../../fixtures/tls/localhost-test-only.crt', import.meta.url));

type Json = Record<string, unknown>;
const alertsOf = (json: Json): Json[] => (json.alerts as Json[] | undefined) ?? [json.alert as Json];
const isSpf = (a: Json) => a.rule === 'protocol_disconnected' && a.domain === 'e2e.example';

async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('end to end: SPF removed and returned, with sync --watch and three channels', () => {
  let world: EngineWorld;
  let smtp: SmtpReceiver;
  let hook: WebhookReceiver;
  let amHook: WebhookReceiver;
  let am: RunningAlertmanager;
  let zone: ZoneDnsServer;
  let watcher: RunningCli | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    // The daemons and servers start side by side.
    [world, smtp, hook, amHook] = await Promise.all([
      startWorld(['e2e.example'], { clock: createRealTimeClock() }),
      startSmtpReceiver({ user: 'ops', password: PASSWORD }),
      startWebhookReceiver(SECRET),
      startWebhookReceiver(null),
    ]);
    const amStarted = startAlertmanager(amHook.url);
    amStarted.catch(() => undefined); // awaited below; a failure to start fails the set-up there
    zone = await startZoneDnsServer({ db: world.svc.db, host: '127.0.0.1', port: 0, ttl: DNS_SECONDS });
    env = cliEnv({
      AUTHWATCH_TOKEN: world.token,
      AUTHWATCH_DB: join(world.dir, 'mirror.db'),
      HOME: world.dir,
      HOOK_SECRET: SECRET,
      SMTP_PASSWORD: PASSWORD,
      // The test SMTP server's certificate, trusted the way an administrator trusts a private CA.
      NODE_EXTRA_CA_CERTS: CA_FILE,
      AUTHWATCH_DNS_SERVERS: `127.0.0.1:${zone.port}`,
    });
    const add = async (args: string[]) => {
      const run = await runCliProcess(['channels', 'add', ...args, '--min-severity', 'critical'], { env });
      expect(run.code, run.stderr).toBe(0);
    };
    const first = await runCliProcess(['sync', '--once', '--base-url', world.svc.baseUrl], { env });
    expect(first.code, first.stderr).toBe(0);
    am = await amStarted;
    // Settings → DNS watch: how often a record may be asked (its TTL, at most this often).
    const mirror = openMirror(join(world.dir, 'mirror.db'));
    mirror.setSetting('dnsWatch', { floorSeconds: DNS_SECONDS, ceilingSeconds: 3600 });
    mirror.close();
    // Three processes adding side by side, as three administrators could (SQLite serialises their writes).
    await Promise.all([
      add([
        'email',
        '--name',
        'mail',
        '--smtp',
        `smtp://ops@127.0.0.1:${smtp.port}`,
        '--from',
        'authwatch@example.net',
        '--to',
        'ops@example.net',
        '--password-env',
        'SMTP_PASSWORD',
      ]),
      add(['webhook', '--name', 'hook', '--url', hook.url, '--secret-env', 'HOOK_SECRET']),
      add(['alertmanager', '--name', 'am', '--url', am.url]),
    ]);
  }, 90_000);
  afterAll(async () => {
    if (watcher && watcher.child.exitCode === null) {
      watcher.child.kill('SIGTERM');
      await watcher.done;
    }
    await am?.close();
    await zone?.close();
    await amHook?.close();
    await hook?.close();
    await smtp?.close();
    await world?.close();
  });

  const amActive = async () =>
    (await am.alerts()).filter(
      (a) => a.labels.alertname === 'protocol_disconnected' && a.labels.domain === 'e2e.example',
    );
  const amNotified = (status: string) =>
    amHook.received
      .flatMap((r) => (r.json.alerts as { status: string; labels: Record<string, string> }[]) ?? [])
      .some((a) => a.status === status && a.labels.domain === 'e2e.example');

  it('one mail, one signed webhook, one Alertmanager alert; then one resolved each', async () => {
    // One domain, so nothing to gather for: alerts go 2 s after the last one came rather than 20 s (the
    // default pace keeps the default).
    const groupWait = DEFAULT_PACE ? [] : ['--group-wait', '2'];
    watcher = startCli(['sync', '--watch', ...groupWait], { env });
    await watcher.waitForStderr(/DNS watch asking 127\.0\.0\.1:\d+/);
    // The watch's first answers are its baseline: the change comes after them (five records of one domain).
    await until(() => zone.queries() >= 5, 30_000, 'the DNS watch’s first answers');
    await new Promise((r) => setTimeout(r, 500));

    const changedAt = Date.now();
    await publish(world.svc, 'e2e.example', 'spf', null);
    await scan(world.svc);

    await until(() => smtp.mails.length >= 1, 240_000, 'the mail');
    const mailSeconds = (smtp.mails[0]!.at - changedAt) / 1000;
    console.log(`DNS change (SPF removed) → mail arrived: ${mailSeconds.toFixed(1)} s`);
    await until(() => hook.received.length >= 1, 30_000, 'the webhook');
    await until(async () => (await amActive()).length === 1, 30_000, 'the Alertmanager alert');

    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.secure).toBe(true);
    expect(smtp.mails[0]!.mail.subject).toMatch(/^\[Critical\] .*e2e\.example/);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.signed).toBe(true);
    expect(hook.received[0]!.json.type).toBe('alert.raised');
    expect(alertsOf(hook.received[0]!.json).filter(isSpf)).toHaveLength(1);
    expect((await amActive())[0]!.labels).toMatchObject({
      severity: 'critical',
      protocol: 'spf',
      account: 'default',
    });

    const returnedAt = Date.now();
    await publish(world.svc, 'e2e.example', 'spf', SPF);
    await scan(world.svc);

    await until(() => smtp.mails.length >= 2, 240_000, 'the resolved mail');
    console.log(
      `DNS change (SPF back) → resolved mail arrived: ${((smtp.mails[1]!.at - returnedAt) / 1000).toFixed(1)} s`,
    );
    await until(() => hook.received.length >= 2, 30_000, 'the resolved webhook');
    await until(async () => (await amActive()).length === 0, 30_000, 'Alertmanager to end the alert');
    await until(() => amNotified('resolved'), 30_000, 'Alertmanager to notify resolved');

    expect(smtp.mails[1]!.mail.subject).toMatch(/^\[Resolved\] .*e2e\.example/);
    expect(hook.received[1]!.signed).toBe(true);
    expect(hook.received[1]!.json.type).toBe('alert.resolved');
    expect(alertsOf(hook.received[1]!.json).filter(isSpf)).toHaveLength(1);
    // Nothing more comes for this episode: one message each way per channel.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(smtp.mails).toHaveLength(2);
    expect(hook.received).toHaveLength(2);
  }, 600_000);
});
