/**
 * The DNS watch end to end: the engine against the reference service's DNS port (real UDP/TCP on 127.0.0.1),
 * on the service's manual clock. A removal in the sandbox zone raises the disconnect alert within the TTL plus
 * one watch period without an API request (counted at the service; dnsWatchNoApi.test.ts has the same while
 * the interface answers 429 or is unreachable); the service's later health continues the same episode; restoring resolves it; a SERVFAIL-ing resolver raises nothing; a
 * record the service calls connected but DNS answers invalid is a disagreement.
 */
import { createSocket, type Socket } from 'node:dgram';
import * as packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveCheckWorld, type LiveCheckWorld } from '../../support/liveCheckWorld.ts';
import { publish, scan, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

const DOMAINS = ['watched.example', 'flaky.example', 'odd.example'];
const DMARC = 'v=DMARC1; p=reject; rua=mailto:dmarc@example.net';

let live: LiveCheckWorld;
let world: EngineWorld;
let engine: TestEngine;
let accountId: number;
/** Requests of the interface the service received (counted at the service, sandbox controls aside). */
const served = () => live.served();

beforeAll(async () => {
  live = await startLiveCheckWorld({ domains: DOMAINS, dns: { ttl: 60 } });
  ({ world, engine, accountId } = live);
  await watchFor(5);
}, 120_000);

afterAll(() => live?.close());

const watchFor = (seconds: number, until?: () => boolean) => live.watchFor(seconds, until);

function disconnects(fqdn: string) {
  return engine.mirror.listAlerts({}).filter((a) => a.rule === 'protocol_disconnected' && a.fqdn === fqdn);
}

function openDisconnect(fqdn: string) {
  return disconnects(fqdn).filter((a) => a.resolvedAt === null);
}

describe('the DNS watch against the service DNS port', () => {
  it('sees every domain’s records as DNS answers them, with TTL and resolver', async () => {
    const id = world.domainIds['watched.example']!;
    const tab = await engine.app.domainDnsWatch({ accountId, domainId: id });
    expect(tab.watching).toBe(true);
    const dmarc = tab.records.find((r) => r.protocol === 'dmarc')!;
    expect(dmarc).toMatchObject({
      name: '_dmarc.watched.example',
      answer: 'present',
      value: DMARC,
      ttl: 60,
      resolver: `127.0.0.1:${live.dns.port}`,
      serviceConnected: true,
    });
    expect(tab.records.find((r) => r.protocol === 'bimi')).toMatchObject({ answer: 'absent' });
    expect(tab.disagreements).toEqual([]);
  });

  it('raises the DMARC disconnect within TTL + one watch period of the removal, spending no API request', async () => {
    const before = served();
    await publish(world.svc, 'watched.example', 'dmarc', null);
    const seconds = await watchFor(300, () => openDisconnect('watched.example').length > 0);
    expect(openDisconnect('watched.example')).toHaveLength(1);
    console.log(`DNS watch: removal → alert in ${seconds} s (TTL 60 s)`);
    expect(seconds).toBeLessThan(120);
    expect(served()).toBe(before);
    expect(engine.notifier.notified.filter((a) => a.fqdn === 'watched.example')).toHaveLength(1);
  });

  it('takes the service’s later health as the same episode, not a second alert', async () => {
    await scan(world.svc);
    await engine.app.syncNow({ accountId });
    expect(disconnects('watched.example')).toHaveLength(1);
    expect(openDisconnect('watched.example')).toHaveLength(1);
    // (The scan also lowers the health and the score: those are other rules' news.)
    const told = engine.notifier.notified.filter(
      (a) => a.fqdn === 'watched.example' && a.rule === 'protocol_disconnected',
    );
    expect(told).toHaveLength(1);
  });

  it('resolves the episode when the record is back', async () => {
    await publish(world.svc, 'watched.example', 'dmarc', DMARC);
    await watchFor(300, () => openDisconnect('watched.example').length === 0);
    expect(openDisconnect('watched.example')).toEqual([]);
    const restored = engine.mirror
      .listAlerts({})
      .filter((a) => a.rule === 'protocol_restored' && a.fqdn === 'watched.example');
    expect(restored).toHaveLength(1);
  });

  it('shows a record the service calls connected but DNS answers invalid as a disagreement', async () => {
    // The service scans hourly; its latest scan saw the record good (and it scans no more for now); DNS now
    // answers it broken.
    world.svc.clock.advance(60 * 60_000);
    await scan(world.svc);
    await engine.app.syncNow({ accountId });
    await publish(world.svc, 'odd.example', 'dmarc', 'v=DMARC1; p=bogus');
    await watchFor(120);
    let tab = await engine.app.domainDnsWatch({ accountId, domainId: world.domainIds['odd.example']! });
    // Not yet: the service has not had a scan period to see it.
    expect(tab.disagreements).toEqual([]);
    await watchFor(60 * 60);
    tab = await engine.app.domainDnsWatch({ accountId, domainId: world.domainIds['odd.example']! });
    const dmarc = tab.records.find((r) => r.protocol === 'dmarc')!;
    expect(dmarc).toMatchObject({ answer: 'invalid', serviceConnected: true });
    expect(dmarc.reason).toMatch(/p/);
    expect(tab.disagreements).toEqual([
      expect.objectContaining({
        protocol: 'dmarc',
        dns: 'invalid',
        service: 'connected',
        reason: dmarc.reason,
      }),
    ]);
    // The service's scan saying "connected" does not close what DNS keeps answering invalid.
    expect(openDisconnect('odd.example')).toHaveLength(1);
  });
});

describe('a SERVFAIL-ing resolver', () => {
  let servfail: Socket;

  beforeAll(async () => {
    servfail = createSocket('udp4');
    servfail.on('message', (msg, from) => {
      const q = packet.decode(msg);
      const reply = packet.encode({ type: 'response', id: q.id, flags: 2, questions: q.questions });
      servfail.send(reply, from.port, from.address);
    });
    await new Promise<void>((done) => servfail.bind(0, '127.0.0.1', () => done()));
  });
  afterAll(() => servfail.close());

  it('raises nothing, even for a record removed meanwhile, and says the answer is unknown', async () => {
    const { port } = servfail.address();
    const status = await engine.app.updateDnsWatch({ servers: [`127.0.0.1:${port}`] });
    // The run's --dns-server list wins over the settings: this engine was started with the zone's port.
    expect(status.source).toBe('command line');
    engine = await live.reopenEngine();
    expect((await engine.app.dnsWatchStatus()).servers).toEqual([`127.0.0.1:${port}`]);
    const raised = engine.mirror.listAlerts({}).length;
    await publish(world.svc, 'flaky.example', 'dmarc', null);
    await watchFor(240);
    expect(engine.mirror.listAlerts({}).length).toBe(raised);
    const tab = await engine.app.domainDnsWatch({ accountId, domainId: world.domainIds['flaky.example']! });
    expect(tab.records.find((r) => r.protocol === 'dmarc')).toMatchObject({
      answer: 'unknown',
      reason: 'the resolver answered SERVFAIL',
      state: 'connected',
    });
  });
});
