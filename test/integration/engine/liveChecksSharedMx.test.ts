/**
 * MX STARTTLS is polite to a provider that many domains name: three domains whose MX is the same host cost
 * that host one SMTP session a round — counted at the reference world's SMTP server — and each of the three
 * domains gets its answer (STARTTLS offered, the certificate for the MX name).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkLayer } from '../../../main/core/network/networkLayer.ts';
import { LIVE_CHECKS } from '../../../main/core/livechecks/registry.ts';
import { manualScheduler } from '../../../main/core/sync/scheduler.ts';
import { startZoneDnsServer, type ZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { startReferenceWorld, type ReferenceWorld } from '../../../service/tls/referenceWorld.ts';
import { pointWorldHosts } from '../../../service/tls/worldHosts.ts';
import { createManualClock } from '../../support/manualClock.ts';
import {
  addSyncedAccount,
  openEngine,
  publish,
  startWorld,
  type EngineWorld,
  type TestEngine,
} from './engineFixture.ts';

const DOMAINS = ['one.example', 'two.example', 'three.example'];
const MX = 'mx.one.example';
let world: EngineWorld;
let dns: ZoneDnsServer;
let ref: ReferenceWorld;
let engine: TestEngine;
let caDir: string;
let accountId: number;

beforeAll(async () => {
  world = await startWorld(DOMAINS, { clock: createManualClock(new Date()) });
  for (const fqdn of DOMAINS) await publish(world.svc, fqdn, 'mx', `10 ${MX}`);
  pointWorldHosts(world.svc.db, '127.0.0.1', new Date());
  caDir = mkdtempSync(join(tmpdir(), 'authwatch-shared-mx-'));
  const caFile = join(caDir, 'ca.pem');
  ref = await startReferenceWorld({ db: world.svc.db, smtpPort: 0, caFile });
  dns = await startZoneDnsServer({ db: world.svc.db, port: 0, ttl: 0 });
  engine = openEngine(world, {
    network: createNetworkLayer({ env: {}, caFile: { path: caFile, from: '--ca-file' } }),
    dnsWatch: { servers: [`127.0.0.1:${dns.port}`], scheduler: manualScheduler() },
    liveChecks: { scheduler: manualScheduler(), checks: [LIVE_CHECKS.mx_starttls!] },
  });
  accountId = await addSyncedAccount(engine, world);
  await engine.app.updateLiveChecks({ smtpPort: ref.smtp!.port, timeoutMs: 3000 });
}, 60_000);

afterAll(async () => {
  await engine?.close();
  await Promise.all([ref?.close(), dns?.close()]);
  await world?.close();
  if (caDir) rmSync(caDir, { recursive: true, force: true });
});

describe('MX STARTTLS for domains that share an MX host', () => {
  it('dials the host once a round and gives each domain its answer', async () => {
    for (const round of [1, 2]) {
      expect(await engine.app.checkLiveOnce()).not.toBeNull();
      expect(ref.smtp!.counts()).toMatchObject({ sessions: round, tls: round, mail: 0 });
      const rows = engine.mirror.allLiveChecks(accountId).filter((r) => r.check === 'mx_starttls');
      expect(rows.map((r) => r.fqdn).sort()).toEqual([...DOMAINS].sort());
      for (const row of rows) {
        expect(row.status).toBe('ok');
        const [host] = (
          row.result as { hosts: { host: string; starttls: boolean; certificate: { valid: boolean } }[] }
        ).hosts;
        expect(host).toMatchObject({ host: MX, starttls: true, certificate: { valid: true } });
      }
    }
  });
});
