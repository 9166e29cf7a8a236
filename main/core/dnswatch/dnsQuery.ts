/**
 * One DNS question to one server, over UDP with a retry over TCP when the answer comes back truncated.
 *
 * Why not Node's resolver: `dns.Resolver.resolveTxt` returns the strings without their TTL (only A/AAAA
 * take `{ ttl: true }`), and the watch paces each record by its TTL and caches answers for exactly that long;
 * it also folds SERVFAIL, REFUSED and timeouts into error codes after its own retries across servers, where the
 * watch must tell "absent" (NXDOMAIN/NODATA) from "unknown" per server and count every packet it sends against
 * that server's rate cap. So the watch speaks the wire format itself (dns-packet), which is small.
 */
import { createSocket } from 'node:dgram';
import { connect, isIP } from 'node:net';
import { randomInt } from 'node:crypto';
import * as packet from 'dns-packet';
import type { Answer, DecodedPacket } from 'dns-packet';

/** A name server: IPv4/IPv6 address and port. */
export interface DnsServer {
  host: string;
  port: number;
}

/** `host:port` (`[v6]:port`) as people write it. */
export function serverLabel(server: DnsServer): string {
  return server.host.includes(':') ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`;
}

/** One resource record of an answer. */
export interface DnsRr {
  name: string;
  type: string;
  ttl: number;
  /** TXT: the character-strings; CNAME: the target; SOA: the negative-caching minimum as a string. */
  data: string[];
}

/** What a server answered: its response code and records. */
export interface DnsReply {
  rcode: string;
  answers: DnsRr[];
  /** The SOA's negative-caching TTL (min of its TTL and minimum) when the reply carries one. */
  negativeTtl: number | null;
  server: DnsServer;
}

/** Sends one question; rejects only when no reply came (timeout, socket error). */
export type DnsQuery = (server: DnsServer, name: string, type: QueryType) => Promise<DnsReply>;

/** The types the watch asks: TXT for the records, A/AAAA/MX for SPF's a/mx mechanisms, NS for the root. */
export type QueryType = 'TXT' | 'CNAME' | 'A' | 'AAAA' | 'MX' | 'NS';

function text(value: unknown): string {
  return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
}

/**
 * A TTL as a cache may keep it: RFC 2181 §8 makes a value with the top bit set mean 0 (a sender's bug or a
 * forgery meant to pin an answer in caches for 68 years).
 */
function usableTtl(ttl: number | undefined): number {
  return ttl === undefined || !Number.isFinite(ttl) || ttl < 0 || ttl > 0x7fffffff ? 0 : ttl;
}

function toRr(a: Answer): DnsRr {
  const data = (a as { data?: unknown }).data;
  let values: string[];
  if (a.type === 'TXT') values = (Array.isArray(data) ? data : [data]).map(text);
  else if (a.type === 'SOA') values = [String((data as { minimum?: number }).minimum ?? '')];
  else if (a.type === 'MX') {
    const mx = data as { preference?: number; exchange?: string };
    values = [String(mx.preference ?? 0), String(mx.exchange ?? '')];
  } else values = [text(data)];
  const ttl = usableTtl((a as { ttl?: number }).ttl);
  return { name: canonicalName(a.name), type: a.type, ttl, data: values };
}

function toReply(decoded: DecodedPacket, server: DnsServer): DnsReply {
  const soa = (decoded.authorities ?? []).find((a) => a.type === 'SOA');
  const minimum = soa ? usableTtl((soa as { data?: { minimum?: number } }).data?.minimum) : null;
  return {
    rcode: (decoded as unknown as { rcode?: string }).rcode ?? 'NOERROR',
    answers: (decoded.answers ?? []).filter((a) => a.type !== 'OPT').map(toRr),
    // RFC 2308 §5: a negative answer is cached for the lesser of the SOA's TTL and its minimum field.
    negativeTtl: soa && minimum !== null ? Math.min(usableTtl((soa as { ttl?: number }).ttl), minimum) : null,
    server,
  };
}

/** A name as DNS compares names: case-insensitive (RFC 4343), without the root's trailing dot. */
function canonicalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** What was asked: the reply must carry the same ID and the same question. */
interface Asked {
  id: number;
  name: string;
  type: QueryType;
}

/**
 * True when `reply` answers `asked`: a response (QR set), the query's ID, and exactly its question — name
 * (case-insensitive), type and class. Anything else on the socket is not the answer: a forgery guessing the
 * ID, a stray packet, a query (QR clear) echoed back. (The sender's address and port are checked by the
 * socket: see udpExchange.)
 */
function answersQuestion(reply: DecodedPacket, asked: Asked): boolean {
  if (reply.type !== 'response' || reply.id !== asked.id) return false;
  const questions = reply.questions ?? [];
  if (questions.length !== 1) return false;
  const q = questions[0]!;
  return (
    canonicalName(q.name) === canonicalName(asked.name) && q.type === asked.type && (q.class ?? 'IN') === 'IN'
  );
}

/** Two spellings of one IP address (IPv6 has several: `::1`, `0:0:0:0:0:0:0:1`). */
function sameAddress(a: string, b: string): boolean {
  const normal = (ip: string) => (isIP(ip) === 6 ? new URL(`http://[${ip}]/`).hostname : ip);
  return normal(a) === normal(b);
}

function timeoutError(): Error {
  return Object.assign(new Error('timeout'), { code: 'ETIMEOUT' });
}

/** The address family's loopback when the server is on this machine (else the route to it decides). */
function loopbackFor(host: string): string | undefined {
  if (isIP(host) === 6) return host === '::1' ? '::1' : undefined;
  return host.startsWith('127.') ? '127.0.0.1' : undefined;
}

/**
 * One exchange over UDP on a socket connected to the server: the kernel then delivers only datagrams from
 * the server's address and port, and the socket's local address is the loopback or the route's own address
 * (not every interface) — so another local program cannot answer for the server from another port, and the
 * port is not open to the network. Replies that are not the answer (answersQuestion) are dropped and the
 * exchange keeps waiting for the real one until the timeout.
 */
function udpExchange(
  server: DnsServer,
  wire: Buffer,
  asked: Asked,
  timeoutMs: number,
): Promise<DecodedPacket> {
  return new Promise((done, fail) => {
    const socket = createSocket(isIP(server.host) === 6 ? 'udp6' : 'udp4');
    let settled = false;
    const finish = (err: Error | null, reply?: DecodedPacket) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      if (err) fail(err);
      else done(reply!);
    };
    const timer = setTimeout(() => finish(timeoutError()), timeoutMs);
    socket.on('error', (err) => finish(err));
    socket.on('message', (msg, from) => {
      // The connected socket already filters by sender; checked again so a platform that does not is covered.
      if (!sameAddress(from.address, server.host) || from.port !== server.port) return;
      let reply: DecodedPacket;
      try {
        reply = packet.decode(msg);
      } catch {
        return; // garbage on our port: keep waiting for the real reply
      }
      if (answersQuestion(reply, asked)) finish(null, reply);
    });
    socket.bind({ port: 0, address: loopbackFor(server.host) }, () => {
      socket.connect(server.port, server.host, (err?: Error) => {
        if (err) return finish(err);
        socket.send(wire, (sendErr) => {
          if (sendErr) finish(sendErr);
        });
      });
    });
  });
}

/** The largest DNS message a TCP frame can hold (its 2-byte length prefix), plus that prefix. */
const MAX_TCP_BYTES = 2 + 65535;

/**
 * One exchange over TCP (after a truncated UDP reply): frames that are not the answer are skipped and the
 * exchange keeps reading until the timeout, as over UDP.
 */
function tcpExchange(
  server: DnsServer,
  wire: Buffer,
  asked: Asked,
  timeoutMs: number,
): Promise<DecodedPacket> {
  return new Promise((done, fail) => {
    const conn = connect({ port: server.port, host: server.host, localAddress: loopbackFor(server.host) });
    let buf = Buffer.alloc(0);
    let settled = false;
    const finish = (err: Error | null, reply?: DecodedPacket) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      if (err) fail(err);
      else done(reply!);
    };
    const timer = setTimeout(() => finish(timeoutError()), timeoutMs);
    conn.on('error', (err) => finish(err));
    conn.on('close', () => finish(timeoutError()));
    conn.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const frame = buf.subarray(2, 2 + buf.readUInt16BE(0));
        buf = buf.subarray(2 + frame.length);
        let reply: DecodedPacket;
        try {
          reply = packet.decode(frame);
        } catch {
          continue; // an unreadable frame is no answer
        }
        if (answersQuestion(reply, asked)) return finish(null, reply);
      }
      if (buf.length > MAX_TCP_BYTES) finish(new Error('the resolver sent a malformed TCP frame'));
    });
    const prefix = Buffer.alloc(2);
    prefix.writeUInt16BE(wire.length);
    conn.write(Buffer.concat([prefix, wire]));
  });
}

/** The real client: UDP, then TCP when the reply is truncated. */
export function createDnsQuery(options: { timeoutMs?: number } = {}): DnsQuery {
  const timeoutMs = options.timeoutMs ?? 3000;
  return async (server, name, type) => {
    const id = randomInt(0, 65536);
    const wire = packet.encode({
      type: 'query',
      id,
      flags: packet.RECURSION_DESIRED,
      questions: [{ type, name, class: 'IN' }],
    });
    const asked = { id, name, type };
    let reply = await udpExchange(server, wire, asked, timeoutMs);
    if (reply.flag_tc) reply = await tcpExchange(server, wire, asked, timeoutMs);
    return toReply(reply, server);
  };
}
