/**
 * The /metrics endpoint against a web page and a flood: a Host header other than the address it listens on
 * (what DNS rebinding sends) gets 421, and connections that never finish their headers are capped and closed
 * after the headers timeout instead of piling up.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startMetricsServer, type MetricsServer } from '../../../../main/core/delivery/metricsServer.ts';

let server: MetricsServer | null = null;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await server?.close();
  server = null;
});

async function serve(options: { host?: string; headersTimeoutMs?: number; maxConnections?: number } = {}) {
  const registry = new Registry();
  server = await startMetricsServer({
    registry: registry as never,
    textRegistry: registry,
    port: 0,
    ...options,
  });
  return Number(new URL(server.url).port);
}

/** GET /metrics with this Host header; resolves with the status. */
function scrape(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/metrics', headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the Host header', () => {
  it('a name other than the bound address is refused with 421, the address and loopback names served', async () => {
    const port = await serve();
    expect(await scrape(port, `127.0.0.1:${port}`)).toBe(200);
    expect(await scrape(port, `localhost:${port}`)).toBe(200);
    // DNS rebinding: the attacker's name, resolved to 127.0.0.1.
    expect(await scrape(port, `evil.example:${port}`)).toBe(421);
    expect(await scrape(port, `127.0.0.1:${port + 1}`)).toBe(421);
    expect(await scrape(port, '127.0.0.1')).toBe(421);
  });

  it('bound to every interface, an IP address is served and a name is not', async () => {
    const port = await serve({ host: '0.0.0.0' });
    expect(await scrape(port, `192.0.2.10:${port}`)).toBe(200);
    expect(await scrape(port, `[::1]:${port}`)).toBe(200);
    expect(await scrape(port, `rebind.evil.example:${port}`)).toBe(421);
  });
});

describe('slow-header connections', () => {
  it('300 of them: at most the cap stay open, and those close at the headers timeout', async () => {
    const port = await serve({ headersTimeoutMs: 3_000, maxConnections: 32 });
    const started = Date.now();
    const closed = new Set<Socket>();
    for (let i = 0; i < 300; i++) {
      const s = connect(port, '127.0.0.1', () =>
        s.write(`GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`),
      );
      s.on('error', () => undefined);
      s.on('close', () => closed.add(s));
      sockets.push(s);
    }
    const until = async (done: () => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };
    // Refused at once past the cap: 268 closed before any headers timeout (3 s here) could have fired.
    await until(() => closed.size >= 268, 2_500);
    expect(closed.size).toBeGreaterThanOrEqual(268);
    expect(Date.now() - started).toBeLessThan(3_000);
    // The headers timeout closes the 32 it took.
    await until(() => closed.size === 300, 6_000);
    expect(closed.size).toBe(300);
    // And the endpoint still answers a real scrape.
    expect(await scrape(port, `127.0.0.1:${port}`)).toBe(200);
  });
});
