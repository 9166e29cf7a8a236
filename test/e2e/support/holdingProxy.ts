/**
 * A proxy on 127.0.0.1 in front of the reference service that holds the requests a test chooses until the
 * test lets them go: a slow answer made on purpose, so a screen's "waiting" state is seen without sleeping.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HoldingProxy {
  /** The proxy's origin (`http://127.0.0.1:PORT`). */
  origin: string;
  /** Holds every request whose path (with query) matches, until release(). */
  hold(match: RegExp): void;
  /** Lets the held requests of `match` (all when omitted) go on, and stops holding them. */
  release(match?: RegExp): void;
  /** Requests held now, by path. */
  held(): string[];
  close(): Promise<void>;
}

/** Starts a proxy to `target` (an origin on 127.0.0.1) on a free port. */
export async function startHoldingProxy(target: string): Promise<HoldingProxy> {
  const rules = new Set<RegExp>();
  const waiting: { path: string; match: RegExp; go: () => void }[] = [];

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = req.url ?? '/';
    const match = [...rules].find((r) => r.test(path));
    if (match) await new Promise<void>((go) => waiting.push({ path, match, go }));
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name === 'host' || name === 'connection') continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const upstream = await fetch(`${target}${path}`, {
      method: req.method ?? 'GET',
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding')
        out[name] = value;
    });
    res.writeHead(upstream.status, out).end(body);
  }

  const server = createServer((req, res) => {
    forward(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const release = (match?: RegExp) => {
    if (match) rules.delete(match);
    else rules.clear();
    for (const w of [...waiting]) {
      if (match && w.match !== match) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.go();
    }
  };
  return {
    origin: `http://127.0.0.1:${port}`,
    hold: (match) => void rules.add(match),
    release,
    held: () => waiting.map((w) => w.path),
    async close() {
      release();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
