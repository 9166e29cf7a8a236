// The watch's wire client against forged replies (test/support/forgingDnsServer.ts): a reply counts only from
// the server asked (address and port), with the query's ID and question and QR set, over UDP and TCP; every
// other packet is no answer, and the client keeps waiting for the real one. TTLs with the top bit set are 0.
import { readFileSync } from 'node:fs';
import * as packet from 'dns-packet';
import type { Packet } from 'dns-packet';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDnsQuery } from '../../../../main/core/dnswatch/dnsQuery.ts';
import {
  FORGERIES,
  startForgingDnsServer,
  type ForgingDnsServer,
} from '../../../support/forgingDnsServer.ts';

const DMARC = 'v=DMARC1; p=reject';
/** The real server's TTL for the next answers (a test sets a top-bit one). */
let ttl = 300;

function truth(q: Packet): Packet {
  const question = q.questions![0]!;
  return {
    type: 'response',
    id: q.id,
    flags: packet.AUTHORITATIVE_ANSWER,
    questions: [question],
    answers: [{ type: 'TXT', name: question.name, ttl, data: [DMARC] }],
  };
}

let server: ForgingDnsServer;
const query = createDnsQuery({ timeoutMs: 1500 });
const ask = () => query({ host: '127.0.0.1', port: server.port }, '_dmarc.a.example', 'TXT');

beforeAll(async () => {
  server = await startForgingDnsServer(truth);
});
afterAll(() => server.close());
beforeEach(() => {
  ttl = 300;
  server.forgeries = [...FORGERIES];
  server.truncate = false;
  server.silent = false;
  server.tcpSilent = false;
});

describe('the DNS watch wire client against forged replies', () => {
  it.each(FORGERIES)('takes no %s reply for the answer: the real one comes through', async (kind) => {
    server.forgeries = [kind];
    const before = server.forged;
    const reply = await ask();
    expect(server.forged).toBe(before + 1);
    expect(reply.rcode).toBe('NOERROR');
    expect(reply.answers).toEqual([{ name: '_dmarc.a.example', type: 'TXT', ttl: 300, data: [DMARC] }]);
  });

  it('counts nothing but forgeries as no answer at all (a timeout, not "absent")', async () => {
    server.silent = true;
    await expect(ask()).rejects.toMatchObject({ code: 'ETIMEOUT' });
  });

  it('skips forged frames over TCP too (wrong ID, wrong question, QR clear) and reads the real one', async () => {
    server.truncate = true;
    const reply = await ask();
    expect(reply.answers.map((a) => a.data[0])).toEqual([DMARC]);
  });

  it('times out over TCP when only forged frames come', async () => {
    server.truncate = true;
    server.tcpSilent = true;
    await expect(ask()).rejects.toMatchObject({ code: 'ETIMEOUT' });
  });

  it('treats a TTL with the top bit set as 0 (RFC 2181 §8)', async () => {
    ttl = 0x80000000;
    server.forgeries = [];
    const reply = await ask();
    expect(reply.answers[0]!.ttl).toBe(0);
  });

  it('listens on the loopback, connected to the server, not on every interface', async () => {
    server.silent = true;
    server.forgeries = [];
    const pending = ask().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    // /proc/net/udp: local and remote address:port in hex; the watch's socket is the one whose remote end
    // is the server.
    const hexPort = server.port.toString(16).toUpperCase().padStart(4, '0');
    const sockets = readFileSync('/proc/net/udp', 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f[2] === `0100007F:${hexPort}`);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]![1]!.split(':')[0]).toBe('0100007F');
    await pending;
  });
});
