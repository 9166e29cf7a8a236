/**
 * The sandbox zone over real DNS: UDP and TCP on one port (RFC 1035 §4.2), answers from zoneAnswers.ts.
 * UDP replies larger than the client's payload size (512 bytes, or its EDNS size) are sent truncated with TC
 * set, so the client asks again over TCP, as resolvers do. A malformed datagram is dropped (a server does not
 * answer what it cannot parse); a malformed TCP frame closes that connection.
 */
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server, type Socket as TcpSocket } from 'node:net';
import * as packet from 'dns-packet';
import type { Packet } from 'dns-packet';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { answerQuery, RCODE } from './zoneAnswers.ts';

/** A running zone server. */
export interface ZoneDnsServer {
  host: string;
  port: number;
  /** Queries answered since start (UDP and TCP). */
  queries(): number;
  close(): Promise<void>;
}

export interface ZoneDnsServerOptions {
  db: ServiceDb;
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port (UDP and TCP get the same one). */
  port: number;
  /** TTL of every answer and of negative answers (seconds, default 60). */
  ttl?: number;
}

const MAX_TCP_FRAME = 65535;

function udpLimit(query: Packet): number {
  const opt = query.additionals?.find((a) => a.type === 'OPT') as { udpPayloadSize?: number } | undefined;
  return Math.min(Math.max(opt?.udpPayloadSize ?? 512, 512), 4096);
}

function respond(db: ServiceDb, query: Packet, ttl: number): Packet {
  try {
    return answerQuery(db, query, ttl);
  } catch {
    // The database failed (closed, locked): say so instead of going silent, so resolvers try again later.
    return {
      type: 'response',
      id: query.id ?? 0,
      flags: RCODE.SERVFAIL,
      questions: query.questions ?? [],
    };
  }
}

function listenUdp(
  host: string,
  port: number,
  onMessage: (msg: Buffer, from: { address: string; port: number }, socket: Socket) => void,
): Promise<Socket> {
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  socket.on('message', (msg, rinfo) => onMessage(msg, rinfo, socket));
  return new Promise((done, fail) => {
    socket.once('error', fail);
    socket.bind(port, host, () => {
      socket.off('error', fail);
      socket.on('error', () => undefined);
      done(socket);
    });
  });
}

function listenTcp(host: string, port: number, onConnection: (s: TcpSocket) => void): Promise<Server> {
  const server = createServer(onConnection);
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      done(server);
    });
  });
}

/** Starts serving the sandbox zone on UDP and TCP. */
export async function startZoneDnsServer(options: ZoneDnsServerOptions): Promise<ZoneDnsServer> {
  const host = options.host ?? '127.0.0.1';
  const ttl = options.ttl ?? 60;
  let count = 0;

  const onDatagram = (msg: Buffer, from: { address: string; port: number }, socket: Socket) => {
    let query: Packet;
    try {
      query = packet.decode(msg);
    } catch {
      return;
    }
    if (query.type !== 'query') return;
    count++;
    const response = respond(options.db, query, ttl);
    let wire = packet.encode(response);
    if (wire.length > udpLimit(query)) {
      wire = packet.encode({
        ...response,
        flags: (response.flags ?? 0) | packet.TRUNCATED_RESPONSE,
        answers: [],
        authorities: [],
      });
    }
    socket.send(wire, from.port, from.address);
  };

  const open = new Set<TcpSocket>();
  const onConnection = (conn: TcpSocket) => {
    open.add(conn);
    conn.once('close', () => open.delete(conn));
    let buffered = Buffer.alloc(0);
    conn.setTimeout(10_000, () => conn.destroy());
    conn.on('error', () => undefined);
    conn.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2) {
        const length = buffered.readUInt16BE(0);
        if (buffered.length < 2 + length) break;
        const frame = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        let query: Packet;
        try {
          query = packet.decode(frame);
        } catch {
          conn.destroy();
          return;
        }
        count++;
        const wire = packet.encode(respond(options.db, query, ttl));
        if (wire.length > MAX_TCP_FRAME) {
          conn.destroy();
          return;
        }
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(wire.length);
        conn.write(Buffer.concat([prefix, wire]));
      }
    });
  };

  // Port 0: the OS picks the UDP port, and TCP takes the same number (retried when that one is busy for TCP).
  for (let attempt = 0; ; attempt++) {
    const udp = await listenUdp(host, options.port, onDatagram);
    const port = udp.address().port;
    try {
      const tcp = await listenTcp(host, port, onConnection);
      return {
        host,
        port,
        queries: () => count,
        close: () =>
          new Promise<void>((done) => {
            udp.close();
            tcp.close(() => done());
            // Idle connections kept open by clients would hold close() back.
            for (const conn of open) conn.destroy();
          }),
      };
    } catch (err) {
      udp.close();
      if (options.port !== 0 || attempt >= 5) throw err;
    }
  }
}
