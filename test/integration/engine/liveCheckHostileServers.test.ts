/**
 * Hostile and broken servers against the live checks' own HTTPS fetch and SMTP conversation, each a small
 * local server of this file: a policy host that redirects (never followed), sends more than 64 KiB (refused)
 * or drips its body past the deadline; an MX that stalls after connecting, never answers EHLO, or hangs up on
 * STARTTLS. Each gives a result in words, within the deadline, without a hang or a crash.
 */
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPolicy } from '../../../main/core/livechecks/policyFetch.ts';
import { probeStarttls } from '../../../main/core/livechecks/starttlsProbe.ts';
import { createTestCa } from '../../../service/tls/testCa.ts';

const HOST = 'mta-sts.hostile.example';
const DEADLINE = 800;
const ca = createTestCa('Hostile test CA');
const issued = ca.issue([HOST], new Date(Date.now() + 90 * 86_400_000), new Date());
const open = new Set<Socket>();
let https: HttpsServer;
/** Requests the policy host received, by path (a followed redirect would show its target). */
const asked: string[] = [];

function listen(server: Server | HttpsServer): Promise<number> {
  server.on('connection', (s: Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)),
  );
}

/** The policy host, answering as `mode` says. */
let mode: 'redirect' | 'huge' | 'drip' = 'redirect';

beforeAll(async () => {
  https = createHttpsServer({ key: issued.key, cert: issued.cert }, (req, res) => {
    asked.push(req.url ?? '');
    if (mode === 'redirect') {
      res.writeHead(302, { location: `https://${HOST}/elsewhere.txt` }).end();
    } else if (mode === 'huge') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`version: STSv1\nmode: enforce\nmx: mx.hostile.example\nmax_age: 86400\n${'#'.repeat(70_000)}`);
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('version: STSv1\n');
      const drip = setInterval(() => res.write('#'), 100);
      res.on('close', () => clearInterval(drip));
    }
  });
  await listen(https);
});

afterAll(async () => {
  for (const s of open) s.destroy();
  await new Promise<void>((r) => https.close(() => r()));
});

async function fetchFrom(): Promise<{ error: string | null; ms: number; body: string | null }> {
  const started = Date.now();
  const port = (https.address() as { port: number }).port;
  const got = await fetchPolicy({
    host: HOST,
    address: '127.0.0.1',
    port,
    ca: [ca.rootPem],
    timeoutMs: DEADLINE,
    now: () => Date.now(),
    proxy: null,
  });
  return { error: got.error, body: got.body, ms: Date.now() - started };
}

describe('a hostile MTA-STS policy host', () => {
  it('a redirect is not followed, and said so', async () => {
    mode = 'redirect';
    asked.length = 0;
    const got = await fetchFrom();
    expect(got.error).toBe('it answered a redirect (302), which senders do not follow');
    expect(asked).toEqual(['/.well-known/mta-sts.txt']);
  });

  it('a body over 64 KiB is refused, not read to the end', async () => {
    mode = 'huge';
    const got = await fetchFrom();
    expect(got).toMatchObject({
      error: 'the policy is larger than 64 KiB, which senders refuse',
      body: null,
    });
  });

  it('a body that drips past the deadline is given up at the deadline', async () => {
    mode = 'drip';
    const got = await fetchFrom();
    expect(got.error).toBe(`the policy did not arrive in full within ${DEADLINE / 1000} s`);
    expect(got.ms).toBeLessThan(DEADLINE + 700);
  });
});

/** An SMTP server that speaks as `script` says on each connection. */
async function smtpServer(
  script: (socket: Socket) => void,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createTcpServer(script);
  const port = await listen(server);
  return {
    port,
    // Its sockets are destroyed too: a server that never reads would otherwise never see the probe leave.
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const socket of open) socket.destroy();
      }),
  };
}

async function converse(script: (socket: Socket) => void) {
  const server = await smtpServer(script);
  const started = Date.now();
  try {
    const seen = await probeStarttls({
      host: 'mx.hostile.example',
      address: '127.0.0.1',
      port: server.port,
      ehloName: 'authwatch.test',
      ca: [ca.rootPem],
      timeoutMs: DEADLINE,
      now: () => Date.now(),
    });
    return { seen, ms: Date.now() - started };
  } finally {
    await server.close();
  }
}

/** Answers EHLO offering STARTTLS, then does `onStarttls`. */
const greetsAndOffers = (onStarttls: (s: Socket) => void) => (s: Socket) => {
  s.write('220 mx.hostile.example ESMTP\r\n');
  s.on('data', (d) => {
    const line = d.toString();
    if (/^EHLO/i.test(line)) s.write('250-mx.hostile.example\r\n250 STARTTLS\r\n');
    else if (/^STARTTLS/i.test(line)) onStarttls(s);
  });
};

describe('a hostile MX host', () => {
  it('one that stalls after the connection is said, at the deadline', async () => {
    const { seen, ms } = await converse(() => {});
    expect(seen).toMatchObject({
      reachable: false,
      error: `the server sent no greeting within ${DEADLINE / 1000} s`,
    });
    expect(ms).toBeLessThan(DEADLINE + 700);
  });

  it('one that greets but never answers EHLO is said, at the deadline', async () => {
    const { seen, ms } = await converse((s) => s.write('220 mx.hostile.example ESMTP\r\n'));
    expect(seen).toMatchObject({
      reachable: true,
      starttls: null,
      certificate: null,
      error: `EHLO was not answered within ${DEADLINE / 1000} s`,
    });
    expect(ms).toBeLessThan(DEADLINE + 700);
  });

  it('one that hangs up on STARTTLS is said at once, without waiting for the deadline', async () => {
    const { seen, ms } = await converse(greetsAndOffers((s) => s.destroy()));
    expect(seen).toMatchObject({
      reachable: true,
      starttls: true,
      certificate: null,
      error: 'the server closed the connection after STARTTLS',
    });
    expect(ms).toBeLessThan(DEADLINE);
  });

  it('one that agrees to STARTTLS and then stalls the handshake is said, at the deadline', async () => {
    const { seen, ms } = await converse(greetsAndOffers((s) => s.write('220 go ahead\r\n')));
    expect(seen).toMatchObject({
      starttls: true,
      certificate: null,
      error: `the TLS handshake did not finish within ${DEADLINE / 1000} s`,
    });
    expect(ms).toBeLessThan(DEADLINE + 700);
  });
});
