import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: SeenRequest, res: ServerResponse) => void | Promise<void>;

/** A real HTTP server on 127.0.0.1 with a replaceable handler and a log of what it received. */
export interface TestServer {
  origin: string;
  requests: SeenRequest[];
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Starts the server on an OS-chosen port. */
export async function startTestServer(): Promise<TestServer> {
  let handler: Handler = (_req, res) => json(res, 200, { data: null });
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      Promise.resolve(handler(seen, res)).catch(() => res.destroy());
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON body. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Sends raw text or bytes with a content type. */
export function raw(
  res: ServerResponse,
  status: number,
  body: string | Uint8Array,
  contentType = 'text/plain',
  headers: Record<string, string> = {},
): void {
  const buffer = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  res.writeHead(status, { 'content-type': contentType, 'content-length': buffer.byteLength, ...headers });
  res.end(buffer);
}

/** The spec's error envelope, echoing the request's X-Request-Id as servers do. */
export function specError(
  req: SeenRequest,
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): void {
  const requestId = String(req.headers['x-request-id'] ?? '');
  json(res, status, { error: { code, message, request_id: requestId, ...extra } }, headers);
}
