import { connect } from 'node:net';

/**
 * Whether an SMTP server offers STARTTLS in its EHLO answer: true, false, or null when it could not be told
 * (no answer within `timeoutMs`, not SMTP). Asked only after a STARTTLS session failed, so the error can say
 * "offers no STARTTLS" instead of nodemailer's "TLS handshake timed out".
 */
export function offersStarttls(host: string, port: number, timeoutMs = 5_000): Promise<boolean | null> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let heard = '';
    let greeted = false;
    const done = (answer: boolean | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('error', () => done(null));
    socket.on('close', () => done(null));
    socket.on('data', (chunk: string) => {
      heard += chunk;
      if (heard.length > 16_384) return done(null);
      // A reply is complete at its last line: "ddd text" (a space, not a dash, after the code).
      const last = /(?:^|\r?\n)(\d{3}) [^\n]*\r?\n$/.exec(heard);
      if (!last) return;
      if (!greeted) {
        greeted = true;
        if (last[1] !== '220') return done(null);
        heard = '';
        socket.write('EHLO authwatch.invalid\r\n');
        return;
      }
      if (last[1] !== '250') return done(null);
      socket.end('QUIT\r\n');
      done(/^250[ -]STARTTLS\b/im.test(heard));
    });
  });
}
