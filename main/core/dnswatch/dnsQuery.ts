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
import { connect } from 'node:net';
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

/** The types the watch asks: TXT for the records, the rest for SPF's a/mx mechanisms. */
export type QueryType = 'TXT' | 'CNAME' | 'A' | 'AAAA' | 'MX';

function text(value: unknown): string {
  return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
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
  const ttl = (a as { ttl?: number }).ttl ?? 0;
  return { name: a.name.toLowerCase().replace(/\.$/, ''), type: a.type, ttl, data: values };
}

function toReply(decoded: DecodedPacket, server: DnsServer): DnsReply {
  const soa = (decoded.authorities ?? []).find((a) => a.type === 'SOA');
  const minimum = soa ? Number((soa as { data?: { minimum?: number } }).data?.minimum ?? 0) : null;
  return {
    rcode: (decoded as unknown as { rcode?: string }).rcode ?? 'NOERROR',
    answers: (decoded.answers ?? []).filter((a) => a.type !== 'OPT').map(toRr),
    // RFC 2308 §5: a negative answer is cached for the lesser of the SOA's TTL and its minimum field.
    negativeTtl: soa && minimum !== null ? Math.min((soa as { ttl?: number }).ttl ?? minimum, minimum) : null,
    server,
  };
}

function udpExchange(server: DnsServer, wire: Buffer, id: number, timeoutMs: number): Promise<DecodedPacket> {
  return new Promise((done, fail) => {
    const socket = createSocket(server.host.includes(':') ? 'udp6' : 'udp4');
    const finish = (err: Error | null, reply?: DecodedPacket) => {
      clearTimeout(timer);
      socket.close();
      if (err) fail(err);
      else done(reply!);
    };
    const timer = setTimeout(
      () => finish(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })),
      timeoutMs,
    );
    socket.on('error', (err) => finish(err));
    socket.on('message', (msg) => {
      let reply: DecodedPacket;
      try {
        reply = packet.decode(msg);
      } catch {
        return; // garbage on our port: keep waiting for the real reply
      }
      if (reply.id === id) finish(null, reply);
    });
    socket.send(wire, server.port, server.host, (err) => {
      if (err) finish(err);
    });
  });
}

function tcpExchange(server: DnsServer, wire: Buffer, timeoutMs: number): Promise<DecodedPacket> {
  return new Promise((done, fail) => {
    const conn = connect(server.port, server.host);
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => {
      conn.destroy();
      fail(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' }));
    }, timeoutMs);
    conn.on('error', (err) => {
      clearTimeout(timer);
      fail(err);
    });
    conn.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 2 || buf.length < 2 + buf.readUInt16BE(0)) return;
      clearTimeout(timer);
      conn.end();
      try {
        done(packet.decode(buf.subarray(2, 2 + buf.readUInt16BE(0))));
      } catch (err) {
        fail(err as Error);
      }
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
    let reply = await udpExchange(server, wire, id, timeoutMs);
    if (reply.flag_tc) reply = await tcpExchange(server, wire, timeoutMs);
    return toReply(reply, server);
  };
}
