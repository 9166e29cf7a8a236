/**
 * Receiver URLs that carry a secret — a `?token=` or `user:password@` — stay out of the mirror (kept in the
 * secret store), are shown redacted in listings and errors, and reach the receiver whole: Alertmanager's
 * endpoint is built with the URL API (…/api/v2/alerts?token=…, not /?token=…/api/v2/alerts).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../../../main/cli/args.ts';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { alertsEndpoint } from '../../../../main/core/delivery/alertmanagerTransport.ts';
import { channelInput } from '../../../../main/core/delivery/channelDraft.ts';
import { describeChannel } from '../../../../main/core/delivery/channelWords.ts';
import { createDeliveryRuntime } from '../../../../main/core/delivery/deliveryRuntime.ts';
import type { ChannelConfig } from '../../../../main/core/mirror/deliveryTypes.ts';
import { openMirror } from '../../../support/openMirror.ts';
import { ALERT_CATALOGUE } from '../../../../main/core/livechecks/ruleRegistry.ts';

const TOKEN = 's3cr3t-t0ken-value';

/** A receiver that records the path and headers of each POST and answers 200. */
let seen: { path: string; headers: IncomingHttpHeaders }[] = [];
let base = '';
const server = createServer((req, res) => {
  seen.push({ path: req.url ?? '', headers: req.headers });
  req.resume();
  req.on('end', () => res.writeHead(200).end('ok'));
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function runtime() {
  const mirror = openMirror(':memory:');
  const store = memorySecretStore();
  return {
    mirror,
    store,
    delivery: createDeliveryRuntime(mirror, store, Date.now, ALERT_CATALOGUE, { env: {} }),
  };
}

/** A channel as an earlier version saved it, written straight to the mirror. */
function storedBefore(mirror: ReturnType<typeof openMirror>, name: string, config: ChannelConfig) {
  return mirror.delivery.addChannel({
    name,
    minSeverity: 'warning',
    accountId: null,
    holdCriticals: false,
    config,
  });
}

/** Everything the mirror's channels table holds, as text. */
function mirrorText(mirror: ReturnType<typeof openMirror>): string {
  return JSON.stringify(mirror.delivery.listChannels());
}

describe('a URL with a token', () => {
  it('Alertmanager: kept in the secret store, listed redacted, posted to …/api/v2/alerts?token=', async () => {
    const { mirror, store, delivery } = runtime();
    const { channel } = await delivery.channels.add({
      kind: 'alertmanager',
      name: 'am',
      url: `${base}/prefix/?token=${TOKEN}`,
    });
    expect(mirrorText(mirror)).not.toContain(TOKEN);
    expect(await store.get(`channel-${channel.id}-url@authwatch`)).toBe(`${base}/prefix/?token=${TOKEN}`);
    expect(describeChannel(mirror.delivery.getChannel(channel.id)!)).toBe(
      `Alertmanager ${base}/prefix/?token=…`,
    );
    seen = [];
    expect(await delivery.channels.test(channel.id)).toEqual({ ok: true });
    expect(seen.map((s) => s.path)).toEqual([`/prefix/api/v2/alerts?token=${TOKEN}`]);
  });

  it('a generic webhook: kept in the secret store, not in the mirror', async () => {
    const { mirror, delivery } = runtime();
    const { channel } = await delivery.channels.add({
      kind: 'webhook',
      name: 'hook',
      url: `${base}/in?token=${TOKEN}`,
    });
    expect(mirrorText(mirror)).not.toContain(TOKEN);
    expect(describeChannel(channel)).toBe(`generic webhook ${base}/…`);
    seen = [];
    expect(await delivery.channels.test(channel.id)).toEqual({ ok: true });
    expect(seen.map((s) => s.path)).toEqual([`/in?token=${TOKEN}`]);
  });

  it('credentials in a URL travel as Basic authentication and are kept out of the mirror', async () => {
    const { mirror, delivery } = runtime();
    const withUser = base.replace('http://', `http://ops:${TOKEN}@`);
    const { channel } = await delivery.channels.add({ kind: 'alertmanager', name: 'am', url: withUser });
    expect(mirrorText(mirror)).not.toContain(TOKEN);
    expect(describeChannel(channel)).toBe(`Alertmanager http://…@${base.slice('http://'.length)}`);
    seen = [];
    expect(await delivery.channels.test(channel.id)).toEqual({ ok: true });
    expect(seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`ops:${TOKEN}`).toString('base64')}`);
  });

  it('an error names the receiver without its token', async () => {
    const { mirror, delivery } = runtime();
    // Nothing listens on port 9 of 127.0.0.1.
    const { channel } = await delivery.channels.add({
      kind: 'alertmanager',
      name: 'am',
      url: `http://127.0.0.1:9/?token=${TOKEN}`,
    });
    const result = await delivery.channels.test(channel.id);
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(JSON.stringify(result)).toContain(
      'Alertmanager at http://127.0.0.1:9/?token=… could not be reached',
    );
    expect(mirrorText(mirror)).not.toContain(TOKEN);
  });

  it('a channel stored before (its token in the mirror) moves its URL to the secret store when next used', async () => {
    const { mirror, store, delivery } = runtime();
    const old = storedBefore(mirror, 'old-am', {
      kind: 'alertmanager',
      url: `${base}/?token=${TOKEN}`,
      resendSeconds: 60,
    });
    const hook = storedBefore(mirror, 'old-hook', {
      kind: 'webhook',
      format: 'generic',
      urlShown: `${base}/…`,
      plainUrl: `${base}/in?token=${TOKEN}`,
    });
    expect(mirrorText(mirror)).toContain(TOKEN);
    seen = [];
    expect(await delivery.channels.test(old.id)).toEqual({ ok: true });
    expect(await delivery.channels.test(hook.id)).toEqual({ ok: true });
    expect(seen.map((s) => s.path)).toEqual([`/api/v2/alerts?token=${TOKEN}`, `/in?token=${TOKEN}`]);
    expect(mirrorText(mirror)).not.toContain(TOKEN);
    expect(await store.get(`channel-${old.id}-url@authwatch`)).toBe(`${base}/?token=${TOKEN}`);
    expect(describeChannel(mirror.delivery.getChannel(old.id)!)).toBe(`Alertmanager ${base}/?token=…`);
  });

  it('a channel stored before (its token in the mirror) is still listed redacted', () => {
    const old = storedBefore(openMirror(':memory:'), 'old', {
      kind: 'alertmanager',
      url: `https://am.example/?token=${TOKEN}`,
      resendSeconds: 60,
    });
    expect(describeChannel(old)).toBe('Alertmanager https://am.example/?token=…');
  });

  it('the endpoint is built with the URL API: a path prefix and a query stay where they belong', () => {
    expect(alertsEndpoint('https://am.example')).toBe('https://am.example/api/v2/alerts');
    expect(alertsEndpoint('https://am.example/am/?token=x')).toBe(
      'https://am.example/am/api/v2/alerts?token=x',
    );
  });

  it('an edit that does not retype the URL keeps the stored one', () => {
    const first = channelInput({
      kind: 'alertmanager',
      name: 'am',
      url: `https://am.example/?token=${TOKEN}`,
    });
    const kept = { ...first.input.config, secretUrl: { stored: true } } as typeof first.input.config;
    const edited = channelInput({ kind: 'alertmanager', name: 'am', resendSeconds: 120 }, kept);
    expect(edited.input.config).toMatchObject({ url: 'https://am.example/?token=…', secretUrl: {} });
    expect(edited.secrets).toEqual({});
  });
});

describe('secret-bearing URLs on the command line', () => {
  const env = { AUTHWATCH_DB: '/tmp/aw.db' };
  const add =
    (...rest: string[]) =>
    () =>
      parseCommandLine(['channels', 'add', ...rest, '--name', 'x'], env);

  it('are refused after --url, with --url-env named instead', () => {
    for (const args of [
      ['webhook', '--format', 'slack', '--url', 'https://hooks.slack.com/services/T0/B0/XYZ'],
      ['webhook', '--format', 'teams', '--url', 'https://example.webhook.office.com/x'],
      ['webhook', '--url', `https://hooks.example/in?token=${TOKEN}`],
      ['alertmanager', '--url', `https://am.example/?token=${TOKEN}`],
      ['alertmanager', '--url', `https://ops:${TOKEN}@am.example/`],
    ])
      expect(add(...args), args.join(' ')).toThrow(/--url-env VAR/);
  });

  it('plain URLs are still taken, and Alertmanager takes --url-env', () => {
    expect(add('webhook', '--url', 'https://hooks.example/in')()).toMatchObject({
      url: 'https://hooks.example/in',
    });
    expect(add('alertmanager', '--url-env', 'AM_URL')()).toMatchObject({ urlEnv: 'AM_URL' });
  });
});
