/**
 * Mail goes unencrypted only to a relay on this machine (?tls=none is refused for any other host, also for a
 * channel stored before the rule), and a server that offers no STARTTLS is said to in words rather than as
 * nodemailer's TLS failure.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSmtpUrl } from '../../../../main/core/delivery/channelDraft.ts';
import { emailTransport } from '../../../../main/core/delivery/emailTransport.ts';
import { testMessage } from '../../../../main/core/delivery/message.ts';
import { withinDeadline } from '../../../../main/core/delivery/sendDeadline.ts';
import type { SmtpTls } from '../../../../main/core/mirror/deliveryTypes.ts';
import { ALERT_CATALOGUE } from '../../../../main/core/livechecks/ruleRegistry.ts';

const MESSAGE = testMessage('t-1', '2026-11-29T00:00:00.000Z');

function mailTo(host: string, port: number, tls: SmtpTls) {
  const transport = emailTransport({
    host,
    port,
    tls,
    user: 'ops',
    password: 'hunter2-password',
    from: 'authwatch@example.net',
    to: ['ops@example.net'],
    timeZone: () => null,
    catalogue: ALERT_CATALOGUE,
  });
  return withinDeadline(20_000, (signal) => transport.send(MESSAGE, signal)).finally(() =>
    transport.close?.(),
  );
}

/**
 * An SMTP server of the old school: no STARTTLS in its EHLO; asked for it anyway, 502 — or, `silent`, "220"
 * and then nothing (nodemailer's "TLS handshake timed out" of the audit).
 */
async function plainOnlyServer(silent = false): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => {
    socket.write('220 relay.example ESMTP\r\n');
    let mute = false;
    socket.on('data', (chunk: Buffer) => {
      if (mute) return;
      for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
        if (/^EHLO/i.test(line)) socket.write('250-relay.example\r\n250-SIZE 1000000\r\n250 AUTH PLAIN\r\n');
        else if (/^STARTTLS/i.test(line)) {
          socket.write(silent ? '220 2.0.0 go ahead\r\n' : '502 5.5.1 Command not implemented\r\n');
          mute = silent;
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('500 what\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

const closers: (() => void)[] = [];
afterAll(() => closers.forEach((close) => close()));

describe('?tls=none', () => {
  it('is taken for a relay on this machine only', () => {
    for (const local of ['127.0.0.1', '[::1]', 'localhost'])
      expect(parseSmtpUrl(`smtp://${local}:25?tls=none`)).toMatchObject({ tls: 'none' });
    expect(() => parseSmtpUrl('smtp://ops@mail.example.net:587?tls=none')).toThrow(
      '?tls=none is only for a relay on this machine (127.0.0.1, ::1 or localhost), not mail.example.net',
    );
    expect(() => parseSmtpUrl('smtp://10.0.0.5?tls=none')).toThrow(/only for a relay on this machine/);
  });

  it('a remote channel stored with it before sends nothing, and says why', async () => {
    const { port, server } = await plainOnlyServer();
    closers.push(() => server.close());
    let connected = 0;
    server.on('connection', () => connected++);
    // A remote name: refused before any lookup or connection.
    await expect(mailTo('relay.example', port, 'none')).rejects.toThrow(
      /\?tls=none is only for a relay on this machine/,
    );
    expect(connected).toBe(0);
  });
});

describe('a server without STARTTLS', () => {
  it('is said to offer no STARTTLS, without the password', async () => {
    const { port, server } = await plainOnlyServer();
    closers.push(() => server.close());
    const error = await mailTo('127.0.0.1', port, 'starttls').catch((e: Error) => e);
    expect(String(error)).toMatch(/the server offers no STARTTLS, and Authwatch sends mail only encrypted/);
    expect(String(error)).not.toContain('hunter2');
  });

  it('one that says "go ahead" to STARTTLS and then stays silent reads the same, not as a TLS timeout', async () => {
    const { port, server } = await plainOnlyServer(true);
    closers.push(() => server.close());
    const error = await mailTo('127.0.0.1', port, 'starttls').catch((e: Error) => e);
    expect(String(error)).toMatch(/the server offers no STARTTLS/);
  }, 40_000);

  it('hiding STARTTLS yet taking it (with a certificate nobody trusts) reads the same', async () => {
    const smtp = new SMTPServer({ hideSTARTTLS: true, authOptional: true, logger: false });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    closers.push(() => smtp.close());
    const port = (smtp.server.address() as AddressInfo).port;
    await expect(mailTo('127.0.0.1', port, 'starttls')).rejects.toThrow(/offers no STARTTLS/);
  });
});
