/**
 * A DNS server for the watch's security tests: it answers each query from `answer` (the truth), but first
 * sends what an attacker on this machine or a broken middlebox would — forged replies that must all be taken
 * for no answer:
 * - off-path: the right ID and question, from another local UDP port (a program that read the watch's port
 *   and ID, or guessed them);
 * - wrong-question: the right ID from the server's own port, for another name, type or class;
 * - query: the right ID and question with QR clear (a query echoed back);
 * - wrong-id: everything right but the ID.
 * Each forgery says the record is gone (NXDOMAIN) with a negative TTL of 2^31−1, or carries a bogus record with
 * TTL 2^32−1, so believing one would both change the record's status and pin the lie in the cache.
 * `truncate` sends every UDP answer truncated so the client asks over TCP, where the same forgeries (less
 * off-path: TCP's handshake rules it out) come as frames before the real one.
 */
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server, type Socket as TcpSocket } from 'node:net';
import * as packet from 'dns-packet';
import type { Packet } from 'dns-packet';

export type Forgery = 'off-path' | 'wrong-question' | 'query' | 'wrong-id';
export const FORGERIES: readonly Forgery[] = ['off-path', 'wrong-question', 'query', 'wrong-id'];

export interface ForgingDnsServer {
  port: number;
  /** Forgeries sent before each real answer (all of them by default). */
  forgeries: Forgery[];
  /** Send the real answer over UDP truncated, so the client asks again over TCP. */
  truncate: boolean;
  /** Send no real answer at all (only the forgeries). */
  silent: boolean;
  /** Send no real answer over TCP (the truncated UDP one still comes). */
  tcpSilent: boolean;
  /** Forged packets sent so far. */
  forged: number;
  /** Real questions answered. */
  answered: number;
  close(): Promise<void>;
}

const HUGE = 0xffffffff;

/** A lie about `q`: NXDOMAIN with a huge negative TTL, or (every other time) a bogus record with a huge TTL. */
function lie(q: Packet, n: number, overrides: Partial<Packet>): Buffer {
  const question = q.questions![0]!;
  const nx = n % 2 === 0;
  return packet.encode({
    type: 'response',
    id: q.id,
    flags: nx ? 3 : 0,
    questions: [question],
    answers: nx ? [] : [{ type: 'TXT', name: question.name, ttl: HUGE, data: ['v=DMARC1; p=none; forged'] }],
    authorities: nx
      ? [
          {
            type: 'SOA',
            name: question.name,
            ttl: HUGE,
            data: {
              mname: 'ns.forged',
              rname: 'x.forged',
              serial: 1,
              refresh: 1,
              retry: 1,
              expire: 1,
              minimum: 0x7fffffff,
            },
          },
        ]
      : [],
    ...overrides,
  });
}

function forged(q: Packet, kind: Forgery, n: number): Buffer {
  const question = q.questions![0]!;
  switch (kind) {
    case 'off-path':
      return lie(q, n, {});
    case 'wrong-question': {
      // Rotate through another name, another type, another class.
      const variants = [
        { ...question, name: `x${question.name}` },
        { ...question, type: question.type === 'TXT' ? 'A' : 'TXT' },
        { ...question, class: 'CH' },
      ] as Packet['questions'];
      return lie(q, n, { questions: [variants![n % 3]!] });
    }
    case 'query':
      return lie(q, n, { type: 'query' });
    case 'wrong-id':
      return lie(q, n, { id: ((q.id ?? 0) + 1) % 65536 });
  }
}

/** The answer of a resolver that lies about every name: NXDOMAIN, the DNS root's too. */
export function nxdomainForEverything(q: Packet): Packet {
  return { type: 'response', id: q.id, flags: 3, questions: q.questions, answers: [] };
}

function frame(wire: Buffer): Buffer {
  const prefix = Buffer.alloc(2);
  prefix.writeUInt16BE(wire.length);
  return Buffer.concat([prefix, wire]);
}

/** Starts the server on 127.0.0.1 (UDP and TCP on one port); `answer` gives the truth for a query. */
export async function startForgingDnsServer(
  answer: (query: Packet) => Packet,
  attempt = 0,
): Promise<ForgingDnsServer> {
  const udp: Socket = createSocket('udp4');
  const offPath: Socket = createSocket('udp4');
  const open = new Set<TcpSocket>();
  let n = 0;
  const state: ForgingDnsServer = {
    port: 0,
    forgeries: [...FORGERIES],
    truncate: false,
    silent: false,
    tcpSilent: false,
    forged: 0,
    answered: 0,
    close: () =>
      new Promise<void>((done) => {
        udp.close();
        offPath.close();
        for (const c of open) c.destroy();
        tcp.close(() => done());
      }),
  };

  udp.on('message', (msg, from) => {
    let q: Packet;
    try {
      q = packet.decode(msg);
    } catch {
      return;
    }
    if (q.type !== 'query' || q.questions?.length !== 1) return;
    for (const kind of state.forgeries) {
      const wire = forged(q, kind, n++);
      (kind === 'off-path' ? offPath : udp).send(wire, from.port, from.address);
      state.forged++;
    }
    if (state.silent) return;
    // The real answer comes last (a little later), so every forgery had its chance first.
    setTimeout(() => {
      const reply = answer(q);
      const wire = state.truncate
        ? packet.encode({ ...reply, flags: (reply.flags ?? 0) | packet.TRUNCATED_RESPONSE, answers: [] })
        : packet.encode(reply);
      state.answered++;
      udp.send(wire, from.port, from.address);
    }, 20);
  });

  const tcp: Server = createServer((conn) => {
    open.add(conn);
    conn.once('close', () => open.delete(conn));
    conn.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    conn.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const q = packet.decode(buf.subarray(2, 2 + buf.readUInt16BE(0)));
        buf = buf.subarray(2 + buf.readUInt16BE(0));
        for (const kind of state.forgeries) {
          if (kind === 'off-path') continue;
          conn.write(frame(forged(q, kind, n++)));
          state.forged++;
        }
        if (state.silent || state.tcpSilent) continue;
        state.answered++;
        conn.write(frame(packet.encode(answer(q))));
      }
    });
  });

  await new Promise<void>((done) => offPath.bind(0, '127.0.0.1', () => done()));
  await new Promise<void>((done) => udp.bind(0, '127.0.0.1', () => done()));
  const port = udp.address().port;
  try {
    await new Promise<void>((done, fail) => {
      tcp.once('error', fail);
      tcp.listen(port, '127.0.0.1', () => {
        tcp.off('error', fail);
        done();
      });
    });
  } catch (err) {
    // That UDP port is busy for TCP: try another pair.
    udp.close();
    offPath.close();
    if (attempt >= 5) throw err;
    return startForgingDnsServer(answer, attempt + 1);
  }
  state.port = port;
  return state;
}
