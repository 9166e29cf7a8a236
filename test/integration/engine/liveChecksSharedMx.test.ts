/**
 * MX STARTTLS is polite to a provider that many domains name: three domains whose MX is the same host cost
 * that host one SMTP session a round — counted at the reference world's SMTP server — and each of the three
 * domains gets its answer (STARTTLS offered, the certificate for the MX name).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CHECKS } from '../../../main/core/livechecks/registry.ts';
import { startLiveCheckWorld, type LiveCheckWorld } from '../../support/liveCheckWorld.ts';
import { publish, type TestEngine } from '../../support/engineWorld.ts';

const DOMAINS = ['one.example', 'two.example', 'three.example'];
const MX = 'mx.one.example';
let live: LiveCheckWorld;
let ref: NonNullable<LiveCheckWorld['ref']>;
let engine: TestEngine;
let accountId: number;

beforeAll(async () => {
  live = await startLiveCheckWorld({
    domains: DOMAINS,
    prepare: async (world) => {
      for (const fqdn of DOMAINS) await publish(world.svc, fqdn, 'mx', `10 ${MX}`);
    },
    tls: { smtp: true },
    liveChecks: { checks: [LIVE_CHECKS.mx_starttls!] },
  });
  ({ engine, accountId } = live);
  ref = live.ref!;
}, 60_000);

afterAll(() => live?.close());

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
