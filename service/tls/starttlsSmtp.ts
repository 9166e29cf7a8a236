/**
 * The reference world's MX host (`--smtp-port`): a real SMTP server (smtp-server) offering STARTTLS with a
 * certificate from the test CA for the name the client asks for by SNI (./tlsWorld.ts), as each MX host of
 * the zone would. It accepts no mail: a live check must never send MAIL, and this server counts any that
 * tries, so tests can say so.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { TlsWorld } from './tlsWorld.ts';

export interface StarttlsSmtp {
  port: number;
  /** Sessions opened, sessions upgraded to TLS, and MAIL commands received (always refused). */
  counts(): { sessions: number; tls: number; mail: number };
  /** Whether EHLO offers STARTTLS (on at start): off, the MX is one a live check must flag. */
  offerStarttls(on: boolean): void;
  close(): Promise<void>;
}

export async function startStarttlsSmtp(o: {
  world: TlsWorld;
  port: number;
  host?: string;
}): Promise<StarttlsSmtp> {
  const counts = { sessions: 0, tls: 0, mail: 0 };
  const server = new SMTPServer({
    SNICallback: o.world.sniCallback,
    name: 'mx.reference.authwatch.example',
    banner: 'Authwatch reference world MX (accepts no mail)',
    authOptional: true,
    disabledCommands: ['AUTH'],
    logger: false,
    onConnect(_session, callback) {
      counts.sessions++;
      callback();
    },
    onSecure(_socket, _session, callback) {
      counts.tls++;
      callback();
    },
    onMailFrom(_address, _session, callback) {
      counts.mail++;
      callback(new Error('This reference MX accepts no mail'));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    counts: () => ({ ...counts }),
    // smtp-server reads the option at every EHLO, so the next session answers without it.
    offerStarttls: (on) => {
      server.options.hideSTARTTLS = !on;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
