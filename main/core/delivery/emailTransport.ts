import type { AlertCatalogue } from '../alerts/ruleSet.ts';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { SmtpTls } from '../mirror/deliveryTypes.ts';
import { DeliveryError, errorWords } from './deliveryError.ts';
import type { OutgoingMessage } from './message.ts';
import { htmlOf, plainTextOf, subjectOf } from './messageText.ts';
import { offersStarttls } from './starttlsProbe.ts';
import type { ChannelTransport, PlainMail } from './transport.ts';

/** What an email transport needs. */
export interface EmailTransportOptions {
  host: string;
  port: number;
  tls: SmtpTls;
  user?: string;
  password?: string;
  from: string;
  to: string[];
  timeZone: () => string | null;
  /** Every alert's words (the whole rule registry's catalogue). */
  catalogue: AlertCatalogue;
  /** Extra TLS options (tests: the CA of a local server's certificate). */
  tlsOptions?: SMTPTransport.Options['tls'];
}

/** A host on this machine: the only place a mail may go unencrypted (?tls=none). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::ffff:127.0.0.1';
}

const NO_TLS_WORDS =
  '?tls=none is only for a relay on this machine (127.0.0.1, ::1 or localhost): a remote server gets the ' +
  'password and the mail in the clear — use STARTTLS (smtp://) or implicit TLS (smtps://)';

/**
 * Mail over SMTP with nodemailer: STARTTLS required (`starttls`), implicit TLS (`implicit`, smtps) or none
 * (`none`, a relay on this machine). Each message has a text and an HTML part; a resolved alert is its own
 * message. The Message-ID derives from the message id, so a re-sent message is recognisably the same.
 */
export function emailTransport(o: EmailTransportOptions): ChannelTransport {
  // nodemailer (~430 KB, a sixth of the browser host's bundle) loads with the first mail sent: the host
  // compiles everything it imports before it can listen (scripts/build-main.ts splits it off).
  const options = {
    host: o.host,
    port: o.port,
    secure: o.tls === 'implicit',
    requireTLS: o.tls === 'starttls',
    ignoreTLS: o.tls === 'none',
    ...(o.user ? { auth: { user: o.user, pass: o.password ?? '' } } : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
    ...(o.tlsOptions ? { tls: o.tlsOptions } : {}),
  } satisfies SMTPTransport.Options;
  let made: Promise<Transporter> | null = null;
  const transporter = () =>
    (made ??= import('nodemailer').then(({ createTransport }) => createTransport(options)));
  /** Sends one mail, given up on when `signal` aborts; errors in words without the password. */
  async function deliver(mail: Parameters<Transporter['sendMail']>[0], signal: AbortSignal) {
    // A channel stored before the rule: nothing is sent in the clear to another machine.
    if (o.tls === 'none' && !isLoopbackHost(o.host))
      throw new DeliveryError(`mail via ${o.host}:${o.port} was not sent: ${NO_TLS_WORDS}`);
    const sending = transporter().then((t) => t.sendMail(mail));
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(new Error('timed out'));
      signal.addEventListener('abort', () => reject(new Error('timed out')), { once: true });
    });
    try {
      await Promise.race([sending, aborted]);
    } catch (error) {
      const words = errorWords(error, o.password ? [o.password] : []);
      // nodemailer asks for STARTTLS whether or not the server offers it, and then reports a TLS failure.
      if (o.tls === 'starttls' && /TLS|SSL|handshake|certificate/i.test(words) && !signal.aborted)
        if ((await offersStarttls(o.host, o.port)) === false)
          throw new DeliveryError(
            `mail via ${o.host}:${o.port} failed: the server offers no STARTTLS, and Authwatch sends mail ` +
              'only encrypted — use smtps:// if it takes implicit TLS (port 465), or a relay on this machine ' +
              'with ?tls=none',
          );
      throw new DeliveryError(`mail via ${o.host}:${o.port} failed: ${words}`);
    }
  }
  return {
    async send(message: OutgoingMessage, signal: AbortSignal) {
      const tz = o.timeZone();
      await deliver(
        {
          from: o.from,
          to: o.to,
          subject: subjectOf(message, o.catalogue),
          text: plainTextOf(message, tz),
          html: htmlOf(message, tz, o.catalogue),
          messageId: `<${message.id}@authwatch.invalid>`,
          headers: { 'X-Authwatch-Event-Id': message.id, 'X-Authwatch-Type': message.type },
        },
        signal,
      );
    },
    async sendMail(mail: PlainMail, signal: AbortSignal) {
      await deliver(
        {
          from: o.from,
          to: o.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: `<${mail.id}@authwatch.invalid>`,
          headers: { 'X-Authwatch-Type': 'digest' },
        },
        signal,
      );
    },
    close() {
      void made?.then((t) => t.close());
    },
  };
}
