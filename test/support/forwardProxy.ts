/**
 * A forward proxy on a loopback port, the kind a company puts between its machines and the internet:
 * plain http as absolute-form requests, https (and anything else) through CONNECT tunnels. It counts
 * what went through it by target, and can ask for a login (407) the way squid does with basic auth.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ForwardProxy {
  /** `http://127.0.0.1:PORT` (or `http://[::1]:PORT`). */
  url: string;
  /** `host:port` of every request and tunnel, in order. */
  readonly seen: string[];
  /** The Proxy-Authorization headers it was sent. */
  readonly logins: string[];
  close(): Promise<void>;
}

function authorized(req: IncomingMessage, login: string | undefined): boolean {
  if (!login) return true;
  return req.headers['proxy-authorization'] === `Basic ${Buffer.from(login).toString('base64')}`;
}

const ASK_LOGIN =
  'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\n' +
  'Content-Length: 0\r\nConnection: close\r\n\r\n';

/** Starts the proxy; `login` ("user:password") makes it answer 407 to anything without it. */
export async function startForwardProxy(
  options: { login?: string; host?: string } = {},
): Promise<ForwardProxy> {
  const seen: string[] = [];
  const logins: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    if (req.headers['proxy-authorization']) logins.push(req.headers['proxy-authorization']);
    if (!authorized(req, options.login)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form request expected');
      return;
    }
    seen.push(target.host);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port || 80,
        method: req.method,
        path: target.pathname + target.search,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    if (req.headers['proxy-authorization']) logins.push(req.headers['proxy-authorization']);
    if (!authorized(req, options.login)) {
      client.end(ASK_LOGIN);
      return;
    }
    const target = new URL(`http://${req.url}`);
    seen.push(target.host);
    const upstream = connect(Number(target.port || 443), target.hostname.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    seen,
    logins,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
