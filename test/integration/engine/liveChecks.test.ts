/**
 * The live checks end to end against the reference world: real DNS over UDP/TCP from the service's zone,
 * real HTTPS for the MTA-STS policy host and real SMTP STARTTLS for the MX hosts, certificates of the world's
 * test CA given to the app as its extra CA file. Each alert is raised and resolved by changing the world; a
 * port 25 that refuses is one notice and no domain alert; a resolver that does not answer raises nothing;
 * and the live checks spend no API request (the service's own per-token count says so).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DNS_WATCH_TRUST_KEY } from '../../../main/core/dnswatch/dnsWatchRuntime.ts';
import { LIVE_CHECK_NOTICES_KEY } from '../../../main/core/livechecks/liveCheckSettings.ts';
import { LIVE_CHECKS } from '../../../main/core/livechecks/registry.ts';
import { nxdomainForEverything, startForgingDnsServer } from '../../support/forgingDnsServer.ts';
import { freePort } from '../../support/freePort.ts';
import { startLiveCheckWorld, type LiveCheckWorld } from '../../support/liveCheckWorld.ts';
import { pointWorldHosts } from '../../../service/tls/worldHosts.ts';
import { enforceMtaSts, publish, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

const FQDN = 'sts.example';
/**
 * Domains with MX hosts only (no MTA-STS), published for the tests that need them (each MX probe costs a
 * round time): a blocked port 25 must not become an alert for any of them.
 */
const OTHERS = ['mail-b.example', 'mail-c.example'];
let live: LiveCheckWorld;
let world: EngineWorld;
let ref: NonNullable<LiveCheckWorld['ref']>;
let engine: TestEngine;
let accountId: number;
let closedPort: number;

async function settings(patch: Parameters<TestEngine['app']['updateLiveChecks']>[0]): Promise<void> {
  await engine.app.updateLiveChecks(patch);
}

/** The open alerts of the account, as rule:severity. */
async function open(): Promise<string[]> {
  const alerts = await engine.app.listAlerts({ accountId, open: true });
  return alerts.map((a) => `${a.rule}:${a.severity}`).sort();
}

async function round(): Promise<void> {
  const ran = await engine.app.checkLiveOnce();
  expect(ran).not.toBeNull();
}

/** Publishes (or removes) the MX records of OTHERS, their hosts' A records pointing at the world. */
async function publishOthersMx(on: boolean): Promise<void> {
  for (const other of OTHERS) await publish(world.svc, other, 'mx', on ? `10 mx.${other}` : null);
  if (on) pointWorldHosts(world.svc.db, '127.0.0.1', new Date());
}

async function remaining(): Promise<number> {
  const res = await world.svc.call('GET', '/me', { token: world.token });
  return Number(res.headers.get('x-ratelimit-remaining'));
}

beforeAll(async () => {
  closedPort = await freePort();
  live = await startLiveCheckWorld({
    domains: [FQDN, ...OTHERS],
    prepare: async (world) => {
      await publish(world.svc, FQDN, 'mx', '10 mx1.sts.example, 20 mx2.sts.example');
      await enforceMtaSts(world, FQDN, ['mx1.sts.example', '*.sts.example']);
    },
    tls: { https: true, smtp: true },
    liveChecks: {},
  });
  ({ world, engine, accountId } = live);
  ref = live.ref!;
}, 60_000);

afterAll(() => live?.close());

describe('live checks against the reference world', () => {
  it('reads the policy over HTTPS and each MX over STARTTLS, all good, for 0 API requests', async () => {
    const before = await remaining();
    await round();
    // Between the two questions of this test the service counted none: the checks spent no request.
    expect(await remaining()).toBe(before - 1);
    const rows = engine.mirror.allLiveChecks(accountId);
    const sts = rows.find((r) => r.check === 'mta_sts_live' && r.fqdn === FQDN)!;
    const mx = rows.find((r) => r.check === 'mx_starttls' && r.fqdn === FQDN)!;
    expect(sts).toMatchObject({ status: 'ok', fqdn: FQDN });
    expect(sts.words).toMatch(/mode enforce/);
    expect(mx).toMatchObject({ status: 'ok' });
    expect(mx.words).toMatch(/mx1\.sts\.example: TLS, certificate until/);
    expect(ref.smtp!.counts().mail).toBe(0);
    expect(ref.smtp!.counts().tls).toBeGreaterThanOrEqual(2);
    expect(await open()).toEqual([]);
  });

  it('raises the expiring certificate at 21 days, critical at 7 under enforce, and resolves it when renewed', async () => {
    // Through the sandbox's own call, as a demo or another client would make it.
    const expireIn = async (days: number | null) => {
      const res = await world.svc.sandbox('PUT', `/tls/certificates/mta-sts.${FQDN}`, {
        expires_in_days: days,
      });
      expect(res.status).toBe(200);
    };
    await expireIn(15);
    await round();
    expect(await open()).toEqual(['mta_sts_certificate_expiring:warning']);
    await expireIn(5);
    await round();
    expect(await open()).toEqual(['mta_sts_certificate_expiring:critical']);
    await expireIn(null);
    await round();
    expect(await open()).toEqual([]);
  });

  it('raises a certificate for another name as invalid (critical under enforce), and resolves it', async () => {
    ref.tlsWorld.setPlan(`mta-sts.${FQDN}`, { expiresInDays: 90, servedName: 'other.example' });
    await round();
    expect(await open()).toEqual(['mta_sts_certificate_invalid:critical']);
    const row = engine.mirror.liveCheck('mta_sts_live', accountId, world.domainIds[FQDN]!)!;
    expect(row.words).toMatch(/not for this name/);
    ref.tlsWorld.setPlan(`mta-sts.${FQDN}`, null);
    await round();
    expect(await open()).toEqual([]);
  });

  it('raises MX certificates that expire or name another host, and resolves them', async () => {
    ref.tlsWorld.setPlan('mx2.sts.example', { expiresInDays: 3 });
    ref.tlsWorld.setPlan('mx1.sts.example', { expiresInDays: 90, servedName: 'mail.elsewhere.example' });
    await round();
    expect(await open()).toEqual(['mx_certificate_expiring:critical', 'mx_certificate_invalid:warning']);
    ref.tlsWorld.setPlan('mx2.sts.example', null);
    ref.tlsWorld.setPlan('mx1.sts.example', null);
    await round();
    expect(await open()).toEqual([]);
  });

  it('raises an MX the policy does not cover (critical under enforce), and resolves it', async () => {
    await publish(world.svc, FQDN, 'mx', '10 mx1.sts.example, 20 mail.other.example');
    pointWorldHosts(world.svc.db, '127.0.0.1', new Date());
    await round();
    expect(await open()).toEqual(['mta_sts_mx_not_covered:critical']);
    await publish(world.svc, FQDN, 'mx', '10 mx1.sts.example, 20 mx2.sts.example');
    await round();
    expect(await open()).toEqual([]);
  });

  it('raises a policy changed while its id did not, and resolves it when a new id is published', async () => {
    const res = await world.svc.sandbox('POST', `/mta-sts/${FQDN}/policy-without-id`, { mode: 'testing' });
    expect(res.status).toBe(200);
    await round();
    expect(await open()).toEqual(['mta_sts_changed_without_id:warning']);
    const id = world.domainIds[FQDN]!;
    world.svc.clock.advance(2000);
    const patch = await world.svc.call('PATCH', `/domains/${id}/mta-sts/policy`, {
      token: world.token,
      body: { mode: 'enforce', max_age: 604800, mx: ['mx1.sts.example', '*.sts.example'] },
    });
    expect(patch.status).toBe(200);
    await round();
    expect(await open()).toEqual([]);
  });

  it('raises an MX certificate expiring within 21 days as a warning, and resolves it when renewed', async () => {
    ref.tlsWorld.setPlan('mx1.sts.example', { expiresInDays: 15 });
    await round();
    expect(await open()).toEqual(['mx_certificate_expiring:warning']);
    ref.tlsWorld.setPlan('mx1.sts.example', null);
    await round();
    expect(await open()).toEqual([]);
  });

  it('raises an MX that offers no STARTTLS, and resolves it when offered again', async () => {
    await publishOthersMx(true);
    const offer = async (starttls: boolean) =>
      expect((await world.svc.sandbox('PUT', '/tls/smtp', { starttls })).status).toBe(200);
    await offer(false);
    await round();
    const alerts = await engine.app.listAlerts({ accountId, open: true });
    expect(alerts.map((a) => `${a.rule}:${a.severity} ${a.title}`).sort()).toEqual(
      [
        `mx.${OTHERS[0]} (MX of ${OTHERS[0]})`,
        `mx.${OTHERS[1]} (MX of ${OTHERS[1]})`,
        `mx1.${FQDN} (MX of ${FQDN})`,
        `mx2.${FQDN} (MX of ${FQDN})`,
      ].map((host) => `mx_starttls_missing:warning ${host} offers no STARTTLS`),
    );
    await offer(true);
    await round();
    expect(await open()).toEqual([]);
    await publishOthersMx(false);
  });

  it('raises an invalid policy file; its fix under a new id is checked within minutes of the DNS watch seeing the id', async () => {
    const id = world.domainIds[FQDN]!;
    const txt = () =>
      engine.mirror.dnsWatchRecords(accountId, id).find((r) => r.protocol === 'mta_sts')?.value ?? null;
    await live.watchFor(600, () => txt() !== null);
    await round();
    const bad = await world.svc.sandbox('POST', `/mta-sts/${FQDN}/policy-without-id`, {
      mx: ['*.*.sts.example'],
    });
    expect(bad.status).toBe(200);
    await round();
    expect(await open()).toEqual(['mta_sts_policy_unreachable:warning']);
    const row = () => engine.mirror.liveCheck('mta_sts_live', accountId, id)!;
    expect(row().words).toMatch(/the policy file is not valid: "\*\.\*\.sts\.example" is not a host name/);

    // The fix is published with a new id; no round is asked for: the ticks alone must notice it.
    const seenBefore = txt();
    world.svc.clock.advance(2000);
    const fixed = await world.svc.call('PATCH', `/domains/${id}/mta-sts/policy`, {
      token: world.token,
      body: { mode: 'enforce', max_age: 604800, mx: ['mx1.sts.example', '*.sts.example'] },
    });
    expect(fixed.status).toBe(200);
    const watched = await live.watchFor(900, () => txt() !== seenBefore);
    expect(txt()).not.toBe(seenBefore);
    const changedAt = world.svc.clock.now().getTime();
    const checkedBefore = row().checkedAt;
    for (let i = 0; i < 100 && row().checkedAt === checkedBefore; i++) {
      world.svc.clock.advance(5000);
      await live.liveTicks.tick();
      await new Promise((r) => setTimeout(r, 20));
    }
    for (let i = 0; i < 100 && (await open()).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await open()).toEqual([]);
    // The DNS watch saw the new id within two minutes (its cadence), and the policy was read again within a
    // minute of that — its own period is a day.
    expect(watched).toBeLessThanOrEqual(120);
    expect(Date.parse(row().checkedAt) - changedAt).toBeLessThanOrEqual(60_000);
  });

  it('raises an unreachable policy host, and resolves it', async () => {
    await settings({ httpsPort: closedPort });
    await round();
    expect(await open()).toEqual(['mta_sts_policy_unreachable:warning']);
    await settings({ httpsPort: ref.https!.port });
    await round();
    expect(await open()).toEqual([]);
  });

  it('says a refused port 25 once, as a notice, and raises no domain alert', async () => {
    await publishOthersMx(true);
    await settings({ smtpPort: closedPort });
    await round();
    expect(await open()).toEqual([]);
    const notices = engine.mirror.getSetting(LIVE_CHECK_NOTICES_KEY) as Record<string, { words: string }>;
    expect(Object.keys(notices)).toEqual(['mx_starttls']);
    expect(notices.mx_starttls!.words).toMatch(/could not be reached for any MX host/);
    // Every domain's MX check is "could not check", none a problem: the network is the finding, said once.
    const mx = engine.mirror.allLiveChecks(accountId).filter((r) => r.check === 'mx_starttls');
    expect(mx.map((r) => `${r.fqdn} ${r.status}`).sort()).toEqual(
      [FQDN, ...OTHERS].map((d) => `${d} unknown`).sort(),
    );
    await settings({ smtpPort: ref.smtp!.port });
    await round();
    expect(engine.mirror.getSetting(LIVE_CHECK_NOTICES_KEY)).toEqual({});
  });

  it('raises nothing when the resolver does not answer', async () => {
    ref.tlsWorld.setPlan(`mta-sts.${FQDN}`, { expiresInDays: 2 });
    const dead = await freePort();
    engine = await live.reopenEngine([`127.0.0.1:${dead}`]);
    await round();
    expect(await open()).toEqual([]);
    const row = engine.mirror.liveCheck('mta_sts_live', accountId, world.domainIds[FQDN]!)!;
    expect(row.status).toBe('unknown');
    ref.tlsWorld.setPlan(`mta-sts.${FQDN}`, null);
  });

  it('raises nothing while the DNS watch’s resolver cannot be trusted (NXDOMAIN for every name): said once, by the watch', async () => {
    ref.tlsWorld.setPlan(`mta-sts.${FQDN}`, { expiresInDays: 2 });
    const liar = await startForgingDnsServer(nxdomainForEverything);
    try {
      engine = await live.reopenEngine([`127.0.0.1:${liar.port}`]);
      const trust = () =>
        engine.mirror.getSetting(DNS_WATCH_TRUST_KEY) as { reason: string } | null | undefined;
      await live.watchFor(120, () => Boolean(trust()));
      expect(trust()!.reason).toMatch(/NXDOMAIN/);
      const asksDns = (check: string) => LIVE_CHECKS[check]!.uses.includes('dns');
      const looks = () =>
        engine.mirror
          .allLiveChecks(accountId)
          .filter((r) => asksDns(r.check))
          .map((r) => `${r.check} ${r.fqdn} ${r.checkedAt}`);
      const before = looks();
      expect(before.length).toBeGreaterThan(0);
      await round();
      expect(await open()).toEqual([]);
      // No check that asks DNS ran on its answers: nothing of theirs was written, no notice of their own.
      expect(looks()).toEqual(before);
      expect(engine.mirror.getSetting(LIVE_CHECK_NOTICES_KEY) ?? {}).toEqual({});
    } finally {
      ref.tlsWorld.setPlan(`mta-sts.${FQDN}`, null);
      await liar.close();
    }
  });
});
