/**
 * Channels go out the same one way as the API (main/core/network): a webhook through the environment's
 * proxy (counted there), a proxy that refuses in words on the channel's test, and a receiver on IPv6's
 * loopback addressed by its literal. Real `authwatch` processes, a real forward proxy, real receivers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCliProcess } from '../../support/cliProcess.ts';
import { startForwardProxy, type ForwardProxy } from '../../support/forwardProxy.ts';
import { startSmtpReceiver } from '../../support/smtpReceiver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.ts';

/** The SMTP receiver's certificate: self-signed, so its own authority. */
const SMTP_CA = new URL('../../fixtures/tls/localhost-test-only.crt', import.meta.url).pathname;

const SLOW = { timeout: 240_000 };

describe('channels on a company network', () => {
  let dir: string;
  let hook: WebhookReceiver;
  let proxy: ForwardProxy;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-channel-net-'));
    hook = await startWebhookReceiver('whsec-network-0123456789');
    proxy = await startForwardProxy();
    env = cliEnv({ AUTHWATCH_DB: join(dir, 'mirror.db'), HOME: dir });
  });
  afterAll(async () => {
    await hook?.close();
    await proxy?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends a webhook through HTTP_PROXY, and names the proxy when it refuses', SLOW, async () => {
    const add = await runCliProcess(['channels', 'add', 'webhook', '--name', 'hook', '--url', hook.url], {
      env,
    });
    expect(add.code, add.stderr).toBe(0);

    const through = await runCliProcess(['channels', 'test', 'hook'], {
      env: { ...env, HTTP_PROXY: proxy.url },
    });
    expect(through.code, through.stderr).toBe(0);
    expect(hook.received).toHaveLength(1);
    expect(proxy.seen).toEqual([new URL(hook.url).host]);

    const dead = await startForwardProxy();
    await dead.close();
    const refused = await runCliProcess(['channels', 'test', 'hook'], {
      env: { ...env, HTTP_PROXY: dead.url },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The proxy at ${new URL(dead.url).host} refused the connection`);
    expect(hook.received).toHaveLength(1);
  });

  it('delivers to a receiver on ::1 addressed by its IPv6 literal', SLOW, async () => {
    let posts = 0;
    const server: Server = createServer((req, res) => {
      posts++;
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    try {
      const url = `http://[::1]:${(server.address() as AddressInfo).port}/hook`;
      const add = await runCliProcess(['channels', 'add', 'webhook', '--name', 'six', '--url', url], { env });
      expect(add.code, add.stderr).toBe(0);
      const sent = await runCliProcess(['channels', 'test', 'six'], { env });
      expect(sent.code, sent.stderr).toBe(0);
      expect(posts).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it(
    'trusts the extra CA (AUTHWATCH_EXTRA_CA) for mail over STARTTLS too, and refuses the server without it',
    SLOW,
    async () => {
      const smtp = await startSmtpReceiver();
      try {
        const add = await runCliProcess(
          [
            'channels',
            'add',
            'email',
            '--name',
            'mail',
            '--smtp',
            `smtp://127.0.0.1:${smtp.port}`,
            '--from',
            'authwatch@example.net',
            '--to',
            'ops@example.net',
          ],
          { env },
        );
        expect(add.code, add.stderr).toBe(0);
        const refused = await runCliProcess(['channels', 'test', 'mail'], { env });
        expect(refused.code).toBe(1);
        expect(smtp.mails).toHaveLength(0);
        const sent = await runCliProcess(['channels', 'test', 'mail'], {
          env: { ...env, AUTHWATCH_EXTRA_CA: SMTP_CA },
        });
        expect(sent.code, sent.stderr).toBe(0);
        await smtp.waitFor(1);
        expect(smtp.mails[0]!.secure).toBe(true);
      } finally {
        await smtp.close();
      }
    },
  );
});
