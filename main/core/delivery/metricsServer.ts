import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * Serves GET /metrics: OpenMetrics to a scraper whose Accept header asks for it (Prometheus), the classic
 * text format otherwise; everything else is 404.
 */
export async function startMetricsServer(o: MetricsServerOptions): Promise<MetricsServer> {
  const host = o.host ?? '127.0.0.1';
  const server: Server = createServer((req, res) => {
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
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
