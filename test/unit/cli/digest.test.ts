/**
 * `authwatch digest --preview --out FILE.html`: the week of an account from the mirror — score changes,
 * protocols that changed, DNS changes and the week's alerts — written as link-free HTML with local times.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/run.ts';
import { openMirror } from '../../support/openMirror.ts';
import { dnsEvent, DOMAIN_ID, domainsPayload, health, score } from '../core/mirror/payloads.ts';

const dir = mkdtempSync(join(tmpdir(), 'authwatch-digest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  let out = '';
  let err = '';
  return {
    io: {
      env: {},
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (err += t) },
      interrupted: () => new Promise<void>(() => undefined),
    },
    out: () => out,
    err: () => err,
  };
}

/** A mirror file in `dir` with one account named `label`, and the CLI run against it. */
function cliWithAccount(file: string, label: string) {
  const db = join(dir, file);
  const mirror = openMirror(db);
  mirror.upsertAccount({ label, baseUrl: 'https://app.example.net/api/v1' });
  mirror.close();
  return async (args: string[]) => {
    const r = io();
    const code = await runCli([...args, '--db', db], r.io);
    return { code, out: r.out(), err: r.err() };
  };
}

/** The arguments of `authwatch channels add email` for a channel named `name`. */
const addEmailChannel = (name: string) => [
  'channels',
  'add',
  'email',
  '--name',
  name,
  '--smtp',
  'smtp://mail.example.net:587',
  '--from',
  'a@example.net',
  '--to',
  'ops@example.net',
];

/** The arguments of `authwatch digest --schedule WHEN --zone ZONE --channel CHANNEL` (and any more). */
const schedule = (when: string, zone: string, channel: string, ...more: string[]) => [
  'digest',
  '--schedule',
  when,
  '--zone',
  zone,
  '--channel',
  channel,
  ...more,
];

describe('authwatch digest --preview', () => {
  it('writes the week’s changes and alerts of the account', async () => {
    const db = join(dir, 'mirror.db');
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000).toISOString();
    const mirror = openMirror(db);
    const account = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://app.example.net/api/v1' });
    mirror.writeSignal({
      accountId: account.id,
      domainId: null,
      signal: 'domains',
      payload: domainsPayload(),
      fetchedAt: now,
    });
    const write = (signal: 'health' | 'security_score' | 'dns_changes', payload: unknown, fetched: string) =>
      mirror.writeSignal({
        accountId: account.id,
        domainId: DOMAIN_ID,
        signal,
        payload: payload as never,
        fetchedAt: fetched,
      });
    write('health', health(at(48)), at(48));
    write('security_score', score(8.5, at(48)), at(48));
    write('health', health(at(2), { spf: false }), at(2));
    write('security_score', score(4, at(2)), at(2));
    write('dns_changes', [dnsEvent(7, 'spf', 'disconnected', at(3))], at(2));
    mirror.close();

    const out = join(dir, 'digest.html');
    const run = io();
    expect(await runCli(['digest', '--preview', '--out', out, '--db', db], run.io), run.err()).toBe(0);
    expect(run.out()).toBe(`Wrote the weekly digest of “Acme” to ${out}.\n`);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('Authwatch weekly digest — Acme');
    expect(html).toContain('example.com: 8.5 → 4.0');
    expect(html).toContain('example.com: SPF now failing');
    expect(html).toContain('example.com: SPF disconnected');
    expect(html).toContain('SPF record of example.com disconnected — open');
    expect(html).not.toMatch(/<a\s|https?:\/\/(?!adaptivecards)/);
  });

  it('asks for --preview and --out', async () => {
    const run = io();
    expect(await runCli(['digest', '--out', 'x.html'], run.io)).toBe(2);
    expect(run.err()).toContain('digest needs --preview and --out FILE.html.');
  });
});

describe('authwatch digest --schedule', () => {
  it('schedules the weekly mail by an email channel in a zone, shows it, and turns it off', async () => {
    const run = cliWithAccount('schedule.db', 'Acme');
    const add = await run(addEmailChannel('ops-mail'));
    expect(add.code, add.err).toBe(0);
    await run(['channels', 'add', 'alertmanager', '--name', 'am', '--url', 'http://127.0.0.1:9093']);

    const set = await run(schedule('mon 08:00', 'Europe/Berlin', 'ops-mail'));
    expect(set.code, set.err).toBe(0);
    expect(set.out).toMatch(
      /^The weekly digest of “Acme” goes to “ops-mail” Mondays at 08:00 \(Europe\/Berlin\); next \d{4}-\d\d-\d\dT0[67]:00:00\.000Z\./,
    );
    const shown = await run(['digest']);
    expect(shown.out).toMatch(
      /^Acme: Mondays at 08:00 \(Europe\/Berlin\) to “ops-mail”; next .*; none sent yet\n$/,
    );
    const json = JSON.parse((await run(['digest', '--json'])).out);
    expect(json).toMatchObject([
      { account: 'Acme', channel: 'ops-mail', weekday: 1, hour: 8, minute: 0, timeZone: 'Europe/Berlin' },
    ]);

    // Not by Alertmanager; not at a day that does not exist; not in a zone that does not exist.
    const am = await run(schedule('mon 08:00', 'UTC', 'am'));
    expect(am).toMatchObject({ code: 1 });
    expect(am.err).toContain('the weekly digest is mailed; “am” is not an email channel');
    const day = await run(['digest', '--schedule', 'someday 08:00', '--channel', 'ops-mail']);
    expect(day.code).toBe(2);
    expect(day.err).toContain('--schedule takes a day and a time, e.g. "mon 08:00"');
    const zone = await run(schedule('mon 08:00', 'Mars/Olympus', 'ops-mail'));
    expect(zone.code).toBe(2);
    expect(zone.err).toContain('--zone takes a time zone such as Europe/Berlin');
    expect((await run(['digest', '--json'])).out).toContain('Europe/Berlin');

    const off = await run(['digest', '--off']);
    expect(off.out).toBe('The weekly digest of “Acme” is no longer mailed.\n');
    expect((await run(['digest'])).out).toBe(
      'No weekly digest is mailed. Schedule one with authwatch digest --schedule.\n',
    );
  });

  it('refuses to remove the channel a digest goes by, saying how to move it or stop both', async () => {
    const run = cliWithAccount('remove.db', 'Acme Corp');
    for (const name of ['ops-mail', 'team-mail']) {
      const add = await run(addEmailChannel(name));
      expect(add.code, add.err).toBe(0);
    }
    const set = await run(schedule('tue 07:30', 'Europe/Berlin', 'ops-mail'));
    expect(set.code, set.err).toBe(0);

    const refused = await run(['channels', 'remove', 'ops-mail']);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      'authwatch: “ops-mail” mails the weekly digest of “Acme Corp” (Tuesdays at 07:30 (Europe/Berlin)); ' +
        'removing the channel would stop it. Move the digest to another email channel first, or remove both.\n' +
        'To keep the digest, mail it by another email channel:\n' +
        `  authwatch digest --schedule "tue 07:30" --zone Europe/Berlin --channel OTHER --label 'Acme Corp'\n` +
        'To stop it with the channel:\n' +
        '  authwatch channels remove ops-mail --with-digest\n',
    );
    expect((await run(['channels', 'list'])).out).toContain('ops-mail');
    expect((await run(['digest'])).out).toMatch(
      /^Acme Corp: Tuesdays at 07:30 \(Europe\/Berlin\) to “ops-mail”/,
    );

    // The command it printed moves the digest; then the channel goes, and the digest stays as it was.
    const moved = await run(schedule('tue 07:30', 'Europe/Berlin', 'team-mail', '--label', 'Acme Corp'));
    expect(moved.code, moved.err).toBe(0);
    const removed = await run(['channels', 'remove', 'ops-mail']);
    expect(removed).toMatchObject({
      code: 0,
      out: 'Removed channel “ops-mail” and what it still had queued.\n',
    });
    expect((await run(['digest'])).out).toMatch(
      /^Acme Corp: Tuesdays at 07:30 \(Europe\/Berlin\) to “team-mail”/,
    );

    // --with-digest stops both, and says so.
    const both = await run(['channels', 'remove', 'team-mail', '--with-digest']);
    expect(both).toMatchObject({
      code: 0,
      out:
        'Removed channel “team-mail” and what it still had queued.\n' +
        'The weekly digest of “Acme Corp” (Tuesdays at 07:30 (Europe/Berlin)) is no longer mailed.\n',
    });
    expect((await run(['digest'])).out).toBe(
      'No weekly digest is mailed. Schedule one with authwatch digest --schedule.\n',
    );
  });
});
