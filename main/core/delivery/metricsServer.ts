import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { isIP, isIPv4, type AddressInfo, type Socket } from 'node:net';
import type { Registry } from 'prom-client';

/** Where and how /metrics is served. */
export interface MetricsServerOptions {
  /** OpenMetrics, served to scrapers that accept it (Prometheus does). */
  registry: Registry<'application/openmetrics-text; version=1.0.0; charset=utf-8'>;
  /** The classic text format, served otherwise (curl, promtool check metrics). */
  textRegistry: Registry;
  port: number;
  /** Default 127.0.0.1: metrics name the portfolio's domains, so nothing else sees them unless asked. */
  host?: string;
  /** When set, scrapes must send `Authorization: Bearer <token>`. */
  bearerToken?: string | null;
  /** Connections open at once (default 32): scrapers are few; the rest are refused. */
  maxConnections?: number;
  /** A request's headers must be in within this (default 10 s): slow-header connections do not pile up. */
  headersTimeoutMs?: number;
}

/** A running endpoint. */
export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * prom-client's classic text names a counter without `_total` (`# TYPE x counter`, `x 1`), which
 * `promtool check metrics` rejects; the classic convention names the family and its samples `x_total`.
 */
export function counterTotals(text: string): string {
  const counters = new Set([...text.matchAll(/^# TYPE (\S+) counter$/gm)].map((m) => m[1]!));
  if (counters.size === 0) return text;
  return text
    .split('\n')
    .map((line) => {
      const m = /^(# (?:HELP|TYPE) )?([a-zA-Z_:][a-zA-Z0-9_:]*)(.*)$/.exec(line);
      if (!m || !counters.has(m[2]!) || m[2]!.endsWith('_total')) return line;
      return `${m[1] ?? ''}${m[2]}_total${m[3]}`;
    })
    .join('\n');
}

/** A host as compared: lower case, IPv6 without its brackets. */
function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * Whether a request's Host header names this endpoint: the bound address and port, or — the same machine by
 * another spelling — localhost or a loopback address; on a wildcard bind (0.0.0.0, ::) any IP address. A page
 * using DNS rebinding always sends its own name (evil.example:9464), never one of these, so it gets 421.
 */
function hostHeaderAllowed(header: string | undefined, boundHost: string, port: number): boolean {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(header ?? '');
  if (!m || Number(m[2] ?? 80) !== port) return false;
  const name = bare(m[1]!);
  const bound = bare(boundHost);
  if (name === bound || name === 'localhost') return true;
  if (name === '::1' || (isIPv4(name) && name.startsWith('127.'))) return true;
  return (bound === '0.0.0.0' || bound === '::') && isIP(name) !== 0;
}

/**
 * Serves GET /metrics: OpenMetrics to a scraper whose Accept header asks for it (Prometheus), the classic
 * text format otherwise; everything else is 404.
 */
export async function startMetricsServer(o: MetricsServerOptions): Promise<MetricsServer> {
  const host = o.host ?? '127.0.0.1';
  let port = 0;
  const headersTimeout = o.headersTimeoutMs ?? 10_000;
  const awaitingHeaders = new Map<Socket, ReturnType<typeof setTimeout>>();
  const server: Server = createServer(
    // Node looks for expired connections every connectionsCheckingInterval (30 s by default).
    { headersTimeout, requestTimeout: headersTimeout * 3, connectionsCheckingInterval: 1_000 },
    (req, res) => {
      clearTimeout(awaitingHeaders.get(req.socket));
      res.shouldKeepAlive = false;
      if (!hostHeaderAllowed(req.headers.host, host, port)) {
        res
          .writeHead(421, { 'content-type': 'text/plain', connection: 'close' })
          .end(`This endpoint answers only to the address it listens on (${shownHost(host)}:${port}).\n`);
        return;
      }
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'GET' || path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here.\n');
        return;
      }
      if (o.bearerToken && !tokenMatches(req.headers.authorization, o.bearerToken)) {
        res
          .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
          .end('Unauthorized\n');
        return;
      }
      const registry = /application\/openmetrics-text/.test(req.headers.accept ?? '')
        ? o.registry
        : o.textRegistry;
      registry
        .metrics()
        .then((text) =>
          res
            .writeHead(200, { 'content-type': registry.contentType })
            .end(registry === o.registry ? text : counterTotals(text)),
        )
        .catch((error: unknown) =>
          res
            .writeHead(500, { 'content-type': 'text/plain' })
            .end(`metrics failed: ${error instanceof Error ? error.message : String(error)}\n`),
        );
    },
  );
  server.maxConnections = o.maxConnections ?? 32;
  // One request per connection (every answer says "Connection: close"), and its headers within the timeout
  // of the connection opening — timed here, since Node's own check runs only every connectionsCheckingInterval
  // and did not end slow-header connections reliably.
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), headersTimeout);
    timer.unref();
    awaitingHeaders.set(socket, timer);
    socket.once('close', () => {
      clearTimeout(timer);
      awaitingHeaders.delete(socket);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${shownHost(host)}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function shownHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
