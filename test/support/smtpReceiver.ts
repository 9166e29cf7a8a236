/**
 * A real SMTP server for tests (smtp-server on 127.0.0.1, a port it picks): STARTTLS with the test-only
 * certificate of test/fixtures/tls, optional AUTH, and every mail parsed with mailparser.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const TLS_DIR = new URL('../fixtures/tls/', import.meta.url);
/** The CA a client must trust to talk STARTTLS to this server. */
export const TEST_SMTP_CA = readFileSync(new URL('localhost-test-only.crt', TLS_DIR));

/** One received mail: the envelope, whether the session was encrypted, and the parsed message. */
export interface ReceivedMail {
  from: string;
  to: string[];
  secure: boolean;
  user: string | null;
  mail: ParsedMail;
  at: number;
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the server; with `auth`, only that user and password may send. */
export async function startSmtpReceiver(auth?: { user: string; password: string }): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    key: readFileSync(new URL('localhost-test-only.key', TLS_DIR)),
    cert: TEST_SMTP_CA,
    authOptional: !auth,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(session, _s, callback) {
      if (auth && session.username === auth.user && session.password === auth.password)
        return callback(null, { user: session.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            secure: session.secure,
            user: typeof session.user === 'string' ? session.user : null,
            mail,
            at: Date.now(),
          });
          for (const w of [...waiters]) w();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    waitFor(count, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waited for ${count} mails, got ${mails.length}`));
        }, timeoutMs);
        const check = () => {
          if (mails.length >= count) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
