/**
 * One MX host's STARTTLS, looked at as a sending MTA would and no further: connect, read the greeting,
 * EHLO with a polite name, STARTTLS when offered, the TLS handshake with SNI the MX name (its certificate kept
 * and judged for that name, as MTA-STS enforce requires), then QUIT. Never a MAIL command: nothing is sent.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { z } from 'zod';
import { certificateSeen, certificateSeenSchema } from './peerCertificate.ts';
import { networkWords } from './policyFetch.ts';

export const mxHostSeenSchema = z.object({
  host: z.string(),
  address: z.string().nullable(),
  /** False when no SMTP conversation could be had (refused, timed out, no address). */
  reachable: z.boolean(),
  /** Why not reachable, or what went wrong in the conversation, in words. */
  error: z.string().nullable(),
  /** Whether EHLO offered STARTTLS (null: the conversation did not get that far). */
  starttls: z.boolean().nullable(),
  certificate: certificateSeenSchema.nullable(),
});
export type MxHostSeen = z.infer<typeof mxHostSeenSchema>;

/** Reads SMTP replies (multi-line: "250-…" until "250 …") off a socket. */
function replies(socket: Socket) {
  let buffer = '';
  const waiting: ((reply: { code: number; lines: string[] }) => void)[] = [];
  const ready: { code: number; lines: string[] }[] = [];
  let lines: string[] = [];
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      lines.push(line.slice(4));
      if (line[3] !== '-') {
        const reply = { code: Number(line.slice(0, 3)), lines };
        lines = [];
        const w = waiting.shift();
        if (w) w(reply);
        else ready.push(reply);
      }
    }
  };
  socket.on('data', onData);
  return {
    next: () =>
      new Promise<{ code: number; lines: string[] }>((resolve) => {
        const r = ready.shift();
        if (r) resolve(r);
        else waiting.push(resolve);
      }),
    detach: () => socket.off('data', onData),
  };
}

/** Where a conversation can stall or be dropped, and what that is in words (a deadline, a close). */
const STEPS = {
  greeting: {
    late: 'the server sent no greeting',
    closed: 'the server closed the connection before its greeting',
  },
  ehlo: { late: 'EHLO was not answered', closed: 'the server closed the connection after EHLO' },
  starttls: { late: 'STARTTLS was not answered', closed: 'the server closed the connection after STARTTLS' },
  handshake: {
    late: 'the TLS handshake did not finish',
    closed: 'the server closed the connection during the TLS handshake',
  },
} as const;

/**
 * Looks at `host` on `address:port`. A server that stalls or hangs up at any step is a result in words
 * (which step, and that it stalled or closed), within the deadline — never a hang.
 */
export function probeStarttls(o: {
  host: string;
  address: string;
  port: number;
  ehloName: string;
  ca: readonly string[] | undefined;
  timeoutMs: number;
  now: () => number;
}): Promise<MxHostSeen> {
  const seen: MxHostSeen = {
    host: o.host,
    address: o.address,
    reachable: false,
    error: null,
    starttls: null,
    certificate: null,
  };
  return new Promise((resolve) => {
    const socket = connectTcp({ host: o.address, port: o.port });
    let settled = false;
    let step: keyof typeof STEPS = 'greeting';
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error && seen.error === null) seen.error = error;
      socket.destroy();
      resolve(seen);
    };
    const timer = setTimeout(
      () =>
        // Once the certificate is read, a QUIT left unanswered loses nothing.
        finish(seen.certificate ? null : `${STEPS[step].late} within ${o.timeoutMs / 1000} s`),
      o.timeoutMs,
    );
    socket.on('error', (error) => finish(networkWords(error)));
    // A close that ends nothing else is the server hanging up mid-conversation (after the certificate: QUIT).
    socket.on('close', () => finish(seen.certificate ? null : STEPS[step].closed));
    socket.on('connect', () => {
      void (async () => {
        const smtp = replies(socket);
        const greeting = await smtp.next();
        seen.reachable = true;
        if (greeting.code !== 220)
          return finish(`it greeted with ${greeting.code} ${greeting.lines[0] ?? ''}`);
        step = 'ehlo';
        socket.write(`EHLO ${o.ehloName}\r\n`);
        const ehlo = await smtp.next();
        if (ehlo.code !== 250) return finish(`EHLO was answered ${ehlo.code}`);
        seen.starttls = ehlo.lines.some((l) => /^STARTTLS\b/i.test(l));
        if (!seen.starttls) {
          socket.write('QUIT\r\n');
          return finish(null);
        }
        step = 'starttls';
        socket.write('STARTTLS\r\n');
        const go = await smtp.next();
        if (go.code !== 220) return finish(`STARTTLS was answered ${go.code}`);
        smtp.detach();
        step = 'handshake';
        const tls = connectTls({
          socket,
          servername: o.host,
          ...(o.ca ? { ca: [...o.ca] } : {}),
          // Judged below, after the certificate is kept: an invalid one is the finding.
          rejectUnauthorized: false,
        });
        tls.on('error', (error) => finish(`TLS failed: ${networkWords(error)}`));
        tls.on('secureConnect', () => {
          seen.certificate = certificateSeen(tls, o.host, o.now());
          // QUIT at once; its answer (221) or the server closing ends the conversation.
          tls.once('data', () => finish(null));
          tls.once('end', () => finish(null));
          tls.write('QUIT\r\n');
        });
      })();
    });
  });
}
