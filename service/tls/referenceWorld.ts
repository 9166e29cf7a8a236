/**
 * The reference world's TLS side, started beside the service (`--https-port`, `--smtp-port`, `--ca-file`):
 * the test CA (its root written to the CA file, which the app is given as `--ca-file` or AUTHWATCH_EXTRA_CA),
 * the MTA-STS policy host over HTTPS and the MX host with STARTTLS, and the zone's A records pointing at them.
 */
import { writeFileSync } from 'node:fs';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { startMtaStsHttps, type MtaStsHttps } from './mtaStsHttps.ts';
import { startStarttlsSmtp, type StarttlsSmtp } from './starttlsSmtp.ts';
import { TlsWorld } from './tlsWorld.ts';
import { pointWorldHosts } from './worldHosts.ts';

export interface ReferenceWorld {
  tlsWorld: TlsWorld;
  /** The address the servers listen on (the zone's A records point there). */
  address: string;
  https: MtaStsHttps | null;
  smtp: StarttlsSmtp | null;
  close(): Promise<void>;
}

/** Starts what the options ask for (a port of 0 picks a free one); writes the CA's root to `caFile`. */
export async function startReferenceWorld(o: {
  db: ServiceDb;
  address?: string;
  httpsPort?: number;
  smtpPort?: number;
  caFile?: string;
  clock?: () => Date;
}): Promise<ReferenceWorld> {
  const address = o.address ?? '127.0.0.1';
  const clock = o.clock ?? (() => new Date());
  const tlsWorld = new TlsWorld(clock);
  if (o.caFile) writeFileSync(o.caFile, tlsWorld.ca.rootPem, { mode: 0o644 });
  const https =
    o.httpsPort === undefined
      ? null
      : await startMtaStsHttps({ db: o.db, world: tlsWorld, port: o.httpsPort, host: address });
  const smtp =
    o.smtpPort === undefined
      ? null
      : await startStarttlsSmtp({ world: tlsWorld, port: o.smtpPort, host: address });
  pointWorldHosts(o.db, address, clock());
  return {
    tlsWorld,
    address,
    https,
    smtp,
    close: async () => {
      await Promise.all([https?.close(), smtp?.close()]);
    },
  };
}
