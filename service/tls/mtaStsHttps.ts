/**
 * The reference world's MTA-STS policy host over real HTTPS (`--https-port`): for `mta-sts.<fqdn>` (by SNI
 * and Host) it serves the hosted policy of <fqdn> at /.well-known/mta-sts.txt, as the service's policy host
 * would, with a certificate from the test CA (./tlsWorld.ts). Anything else is 404.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { loadMtaSts, webFile } from '../mtaSts/policyStore.ts';
import type { TlsWorld } from './tlsWorld.ts';

export interface MtaStsHttps {
  port: number;
  /** Requests served (every path), for tests. */
  requests(): number;
  close(): Promise<void>;
}

/** The hosted policy of `fqdn`, or null when it has none (or MTA-STS is off). */
function policyText(db: ServiceDb, fqdn: string): string | null {
  const domain = db
    .prepare<[string], { id: number }>('SELECT id FROM domains WHERE fqdn = ? ORDER BY id LIMIT 1')
    .get(fqdn);
  const row = domain ? loadMtaSts(db, domain.id) : undefined;
  return row && row.enabled === 1 ? webFile(row) : null;
}

/** Starts the policy host on host:port (0 picks one). */
export async function startMtaStsHttps(o: {
  db: ServiceDb;
  world: TlsWorld;
  port: number;
  host?: string;
}): Promise<MtaStsHttps> {
  let served = 0;
  const server: Server = createServer({ SNICallback: o.world.sniCallback }, (req, res) => {
    served++;
    const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
    const fqdn = host.startsWith('mta-sts.') ? host.slice('mta-sts.'.length) : null;
    const text =
      req.method === 'GET' && req.url === '/.well-known/mta-sts.txt' && fqdn ? policyText(o.db, fqdn) : null;
    if (text === null) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=300' }).end(text);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    requests: () => served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
