/**
 * The real DNS watch (engine, wire client, UDP and TCP on 127.0.0.1) behind a DNS server that sends, before
 * every real answer from the sandbox zone, the replies an attacker on this machine would
 * (test/support/forgingDnsServer.ts): off-path ones from another port, ones for another name, type or class,
 * ones with QR clear or another ID — each saying the record is gone, or carrying a bogus record, with TTLs of
 * 2^31−1 and more. None of them is an answer: no alert, no status change, no record pinned in the cache; a real
 * removal is still seen within the ceiling, however long the real TTL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerQuery } from '../../../service/dns/zoneAnswers.ts';
import { FORGERIES, startForgingDnsServer, type ForgingDnsServer } from '../../support/forgingDnsServer.ts';
import { startLiveCheckWorld, type LiveCheckWorld } from '../../support/liveCheckWorld.ts';
import { publish, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

const DOMAINS = ['one.example', 'two.example', 'three.example'];
const DMARC = 'v=DMARC1; p=reject; rua=mailto:dmarc@example.net';

let live: LiveCheckWorld<ForgingDnsServer>;
let world: EngineWorld;
let forge: ForgingDnsServer;
let engine: TestEngine;
let accountId: number;
/** The real zone's TTL (a test makes it a day). */
let zoneTtl = 60;

beforeAll(async () => {
  live = await startLiveCheckWorld({
    domains: DOMAINS,
    dns: async (world) => {
      const server = await startForgingDnsServer((q) => answerQuery(world.svc.db, q, zoneTtl));
      server.forgeries = [];
      return server;
    },
  });
  ({ world, engine, accountId, dns: forge } = live);
  await watchFor(5);
}, 120_000);

afterAll(() => live?.close());

const watchFor = (seconds: number, until?: () => boolean) => live.watchFor(seconds, until);

/** What the screens say of every domain: status, verdict, each protocol's state and finding. */
async function statusNow() {
  const rows = await engine.app.overview({ accountId });
  return rows.map((r) => ({
    fqdn: r.fqdn,
    status: r.status,
    verdict: r.posture.verdict.words,
    protocols: Object.values(r.posture.protocols).map((p) => [p.protocol, p.state, p.words, p.finding]),
  }));
}

const alertsNow = () => engine.mirror.listAlerts({}).map((a) => [a.rule, a.fqdn, a.resolvedAt !== null]);
const dmarcOf = (fqdn: string) =>
  engine.mirror.dnsWatchRecords(accountId, world.domainIds[fqdn]!).find((r) => r.protocol === 'dmarc')!;

describe('the DNS watch behind a server sending forged replies', () => {
  it('sees the zone as it is before any forgery', async () => {
    expect(dmarcOf('one.example')).toMatchObject({ answer: 'present', value: DMARC, state: 'connected' });
    expect(alertsNow()).toEqual([]);
  });

  it('takes none of the forged UDP replies (off-path, wrong question, QR clear, wrong ID): no alert, no status change', async () => {
    const before = await statusNow();
    forge.forgeries = [...FORGERIES];
    const forged = forge.forged;
    await watchFor(5 * 60);
    expect(forge.forged - forged).toBeGreaterThan(50);
    expect(alertsNow()).toEqual([]);
    expect(await statusNow()).toEqual(before);
    expect(dmarcOf('one.example')).toMatchObject({ answer: 'present', value: DMARC, ttl: 60 });
  });

  it('takes none of the forged TCP frames either', async () => {
    const before = await statusNow();
    forge.truncate = true;
    const answered = forge.answered;
    await watchFor(5 * 60);
    forge.truncate = false;
    expect(forge.answered - answered).toBeGreaterThan(10);
    expect(alertsNow()).toEqual([]);
    expect(await statusNow()).toEqual(before);
    expect(dmarcOf('two.example')).toMatchObject({ answer: 'present', value: DMARC });
  });

  it('is not blinded by a huge TTL, forged or real: a removal is alerted within the ceiling', async () => {
    await engine.app.updateDnsWatch({ floorSeconds: 5, ceilingSeconds: 30 });
    zoneTtl = 86_400;
    await watchFor(60);
    expect(dmarcOf('three.example').ttl).toBe(86_400);
    await publish(world.svc, 'three.example', 'dmarc', null);
    const seconds = await watchFor(300, () => alertsNow().length > 0);
    console.log(
      `DNS watch behind forgeries: removal → alert in ${seconds} s (real TTL 86,400 s, ceiling 30 s); ${forge.forged} forged replies sent, ${forge.answered} real answers`,
    );
    // One ceiling (30 s, + jitter) to see it, two confirmations 15 s apart.
    expect(seconds).toBeLessThanOrEqual(33 + 30 + 5);
    expect(alertsNow()).toEqual([['protocol_disconnected', 'three.example', false]]);
  });
});
