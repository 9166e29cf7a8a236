import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { BridgeMethods } from '../../shared/bridge/contract.ts';
import type { BridgeEvent } from '../../shared/bridge/events.ts';
import { BRIDGE_PROTOCOL, CLOSE_UNAUTHORISED, presentedSecret } from '../../shared/bridge/hostCredential.ts';
import { MAX_BRIDGE_MESSAGE_BYTES } from '../../shared/bridge/messageLimit.ts';
import { createBridgeDispatcher } from '../../shared/bridge/serve.ts';
import { newSecret, secretMatches } from './secret.ts';
import { readRendererFile, rendererContentSecurityPolicy } from '../core/index.ts';

/** What the host serves: the bridge's methods, its events and the built renderer. */
export interface HostOptions {
  methods: BridgeMethods;
  /** Every bridge event to push to connected windows; returns the unsubscribe function. */
  subscribe(listener: (event: BridgeEvent) => void): () => void;
  /** Folder of the built renderer (out/renderer). */
  rendererDir: string;
  /** 0 (default): the OS picks. */
  port?: number;
  /** The per-run secret (default: a new random one). */
  secret?: string;
  log?: (line: string) => void;
  /**
   * Called once per window when its first screen is on its way: its first `overviewPage` call answered, or
   * `readyFallbackMs` after it connected (a window that asks something else first). The host's work that
   * can wait (the notifier delivering what waited for one, the engine's first tick) waits for it, so on a
   * machine of few cores the window's first rows are not answered behind it.
   */
  onWindowReady?: () => void;
  /** Default 1,000 ms. */
  readyFallbackMs?: number;
}

/** The bridge call that brings a window its first screen (session.svelte.ts asks it first). */
const FIRST_SCREEN_METHOD = 'overviewPage';

/** A running host. `url` carries the secret in its fragment, which the browser never sends to a server. */
export interface RunningHost {
  url: string;
  origin: string;
  /** How many windows are connected now. */
  windows(): number;
  close(): Promise<void>;
}

const INTERNAL_ERROR = {
  ok: false,
  error: { code: 'internal_error', message: 'Authwatch could not answer.' },
};

/** A call's id: what the page matches the answer with. */
const isCallId = (id: unknown): id is number => typeof id === 'number' && Number.isSafeInteger(id);

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer) {
  res.writeHead(status, {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    ...headers,
  });
  res.end(body);
}

/**
 * The browser host: the built renderer on 127.0.0.1 and the bridge over a WebSocket, for machines where
 * Electron cannot run (servers, CI, end-to-end tests). Only a page of our own origin that holds this run's
 * secret can call the bridge: the Host header must be ours (no DNS rebinding), the WebSocket's Origin must be
 * ours (no other web page), and the WebSocket must present the secret as a subprotocol (no other local
 * process). The page learns the secret from the link's fragment and keeps it in its sessionStorage, both
 * scoped to this origin; no cookie is set, since a browser sends cookies to every port of a host. The
 * renderer's files themselves hold nothing secret and are served to any request with our Host header.
 */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const secret = options.secret ?? newSecret();
  const dispatch = createBridgeDispatcher(options.methods, (method, error) =>
    options.log?.(`bridge: ${method}: ${error.message}`),
  );
  let origin = '';
  let hostHeader = '';

  const server = createServer((req, res) => {
    void (async () => {
      if (req.headers.host !== hostHeader)
        return send(res, 421, { 'Content-Type': 'text/plain' }, 'wrong host');
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return send(res, 405, { 'Content-Type': 'text/plain', Allow: 'GET, HEAD' }, 'method not allowed');
      const url = new URL(req.url ?? '/', origin);
      const isPage = url.pathname === '/' || url.pathname === '/index.html';
      const file = await readRendererFile(options.rendererDir, url.pathname);
      if (!file) return send(res, 404, { 'Content-Type': 'text/plain' }, 'not found');
      send(
        res,
        200,
        {
          'Content-Type': file.type,
          'Content-Security-Policy': rendererContentSecurityPolicy(`'self' ${origin.replace('http', 'ws')}`),
          'Cache-Control': isPage ? 'no-store' : 'max-age=3600',
        },
        req.method === 'HEAD' ? '' : file.body,
      );
    })().catch((error: unknown) => {
      options.log?.(`host: ${(error as Error).message}`);
      if (!res.headersSent) send(res, 500, { 'Content-Type': 'text/plain' }, 'internal error');
    });
  });

  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_BRIDGE_MESSAGE_BYTES,
    // Select the bridge's own subprotocol, never echo the one that carries the secret.
    handleProtocols: (offered) => (offered.has(BRIDGE_PROTOCOL) ? BRIDGE_PROTOCOL : false),
  });
  server.on('upgrade', (req, socket, head) => {
    // The HTTP server stops watching an upgrading socket's errors: a reset here must not end the process.
    socket.on('error', () => socket.destroy());
    const ours = req.url === '/bridge' && req.headers.host === hostHeader && req.headers.origin === origin;
    if (!ours) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      // A page of our origin without this run's secret (a tab opened without the link, a link of an
      // earlier run) learns why, by a close code; it never reaches the dispatcher.
      if (!secretMatches(secret, presentedSecret(req.headers['sec-websocket-protocol']))) {
        ws.on('error', () => undefined);
        return ws.close(CLOSE_UNAUTHORISED, 'this run’s secret is missing');
      }
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      // A frame the WebSocket layer refuses (too large, invalid UTF-8, reserved bits, bad opcode) closes
      // this one connection with its close code; without a listener the 'error' would end the process.
      ws.on('error', (error) => options.log?.(`bridge: closed a connection: ${error.message}`));
      let ready: (() => void) | null = () => {
        ready = null;
        clearTimeout(fallback);
        options.onWindowReady?.();
      };
      const fallback = setTimeout(() => ready?.(), options.readyFallbackMs ?? 1_000);
      ws.on('close', () => clearTimeout(fallback));
      ws.on('message', (raw, isBinary) => {
        try {
          receive(ws, raw, isBinary, (method) => {
            if (method === FIRST_SCREEN_METHOD) ready?.();
          });
        } catch (error) {
          options.log?.(`bridge: ${(error as Error).message}`);
          ws.close(1011, 'internal error');
        }
      });
    });
  });

  /**
   * One message from a window: a call with a numeric id, answered under that id (`answered` told the method
   * once the answer is sent); anything else closes.
   */
  const receive = (ws: WebSocket, raw: RawData, isBinary: boolean, answered: (method: unknown) => void) => {
    if (isBinary) return ws.close(1003, 'the bridge takes text messages');
    let message: unknown;
    try {
      message = JSON.parse(String(raw));
    } catch {
      return ws.close(1008, 'a bridge message must be JSON');
    }
    const id = (message as { id?: unknown } | null)?.id;
    if (typeof message !== 'object' || message === null || Array.isArray(message) || !isCallId(id))
      return ws.close(1008, 'a bridge call needs a numeric id');
    const { method, args } = message as { method?: unknown; args?: unknown };
    void dispatch(method, args)
      .then((reply) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, reply }));
      })
      .catch((error: unknown) => {
        options.log?.(`bridge: ${(error as Error).message}`);
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, reply: INTERNAL_ERROR }));
      })
      .finally(() => answered(method));
  };

  const unsubscribe = options.subscribe((event) => {
    const text = JSON.stringify({ event: event.event, payload: event.payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
  });

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => done());
  });
  // Once listening, an error of the server is logged, never thrown out of the process.
  server.on('error', (error) => options.log?.(`host: ${error.message}`));
  const { port } = server.address() as AddressInfo;
  hostHeader = `127.0.0.1:${port}`;
  origin = `http://${hostHeader}`;
  return {
    url: `${origin}/#k=${secret}`,
    origin,
    windows: () => sockets.size,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
