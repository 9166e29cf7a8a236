// The demo a new user sees first (`npm run service -- --seed demo`): the Acme portfolio and its 90 days of
// history, read back through the API as an app would. Every posture of the plan must be visible where a user
// looks for it, and every answer must match the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService, type ServiceHarness } from '../../support/serviceHarness.ts';
import { seedDemoData, type DemoDataSeed } from '../../../service/seed/demo.ts';
import { PORTFOLIO } from '../../../service/seed/portfolio.ts';
import { createPrng } from '../../../service/seed/prng.ts';
import { dmarcReportsFor } from '../../../service/seed/reports.ts';
import { createManualClock } from '../../support/manualClock.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const DAY = 86_400_000;

function dateOf(daysFromNow: number): string {
  return new Date(NOW.getTime() + daysFromNow * DAY).toISOString().slice(0, 10);
}

let svc: ServiceHarness;
let token: string;
let seed: DemoDataSeed;

function idOf(fqdn: string): number {
  const id = seed.domainIds[fqdn];
  if (id === undefined) throw new Error(`${fqdn} was not seeded`);
  return id;
}

/** Each readiness check's id → whether it passed. */
function checkResults(readiness: { checks: { id: string; passed: boolean }[] }): Record<string, boolean> {
  return Object.fromEntries(readiness.checks.map((c) => [c.id, c.passed]));
}

async function get(path: string, query?: Record<string, string | number>) {
  const res = await svc.call('GET', path, { token, query });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

beforeAll(async () => {
  svc = await startService({ seed: 'demo-data' });
  seed = svc.seed as DemoDataSeed;
  ({ token } = await svc.createToken(['domains:read', 'account:read']));
}, 300_000);

afterAll(() => stopService(svc));

describe('demo portfolio', () => {
  it('lists every domain of the plan (at least 12), in their groups, with the subdomain under its parent', async () => {
    const body = await get('/domains', { limit: 100 });
    expect(body.pagination.total).toBe(PORTFOLIO.length);
    expect(body.pagination.total).toBeGreaterThanOrEqual(12);
    const byName = new Map<string, Record<string, unknown>>(
      body.data.map((d: Record<string, unknown>) => [d.fqdn, d]),
    );
    expect([...byName.keys()].sort()).toEqual(PORTFOLIO.map((p) => p.fqdn).sort());
    expect(byName.get('shop.acme.example')?.parent_domain_id).toBe(idOf('acme.example'));

    const groups = await get('/domain-groups');
    const counts = Object.fromEntries(
      groups.data.map((g: { name: string; domains_count: number }) => [g.name, g.domains_count]),
    );
    for (const name of ['Brands', 'Transactional', 'Regional', 'Parked']) {
      expect(counts[name]).toBe(PORTFOLIO.filter((p) => p.group === name).length);
    }
  });

  it('shows the fully protected flagship as Protected with all five protocols passing', async () => {
    const health = (await get(`/domains/${idOf('acme.example')}/health`)).data;
    expect(health.source).toBe('guard_history');
    expect(health.result).toBe('Protected');
    expect(health.mail_provider).toBe('Google Workspace');
    expect(health.protocols).toEqual({ dmarc: true, spf: true, mta_sts: true, tls_rpt: true, bimi: true });
    expect(health.dmarc_record).toContain('p=reject');
    const policy = (await get(`/domains/${idOf('acme.example')}/dmarc-policy`)).data;
    expect(policy.policy).toBe('reject');
    const mtaSts = (await get(`/domains/${idOf('acme.example')}/mta-sts`)).data;
    expect(mtaSts.mode).toBe('enforce');
    const score = (await get(`/domains/${idOf('acme.example')}/security-score`)).data;
    expect(score.score).toBe(10);
  });

  it("serves the flagship's Verified Mark Certificate: Acme's registered mark, covering the domain", async () => {
    const vmc = (await get(`/domains/${idOf('acme.example')}/bimi/vmc`)).data;
    expect(vmc.certificate).toMatchObject({
      mark_type: 'Registered Mark',
      has_logotype: true,
      san: ['acme.example'],
    });
    // A demo certificate under the demo root, which the seed registered as a sandbox trust root: valid.
    expect(vmc.valid).toBe(true);
    expect(vmc.certificate.chain_ok).toBe(true);
    expect(vmc.problems).toEqual([]);
    const bimi = (await get(`/domains/${idOf('acme.example')}/bimi`)).data;
    expect(bimi.vmc_status).toBe('valid');
  });

  it('shows the flagship fully BIMI-ready: every check passes, the certificate included', async () => {
    const readiness = (await get(`/domains/${idOf('acme.example')}/bimi/readiness`)).data;
    const passed = checkResults(readiness);
    expect(passed).toEqual({
      dmarc_enforced: true,
      spf_present: true,
      bimi_record: true,
      svg_valid: true,
      vmc_valid: true,
    });
    expect(readiness).toMatchObject({ score: 100, ready: true });
  });

  it('shows the BIMI-ready brand: enforcing DMARC, SPF, a published record and a valid Tiny PS logo', async () => {
    const readiness = (await get(`/domains/${idOf('acme-brand.example')}/bimi/readiness`)).data;
    const passed = checkResults(readiness);
    expect(passed).toEqual({
      dmarc_enforced: true,
      spf_present: true,
      bimi_record: true,
      svg_valid: true,
      // The certificate is the one step left (see the portfolio plan).
      vmc_valid: false,
    });
    expect(readiness.score).toBe(80);
  });

  it('shows the missing SPF, the p=none monitoring and the MTA-STS testing postures', async () => {
    const labs = (await get(`/domains/${idOf('acme-labs.example')}/health`)).data;
    expect(labs.protocols.spf).toBe(false);
    expect(labs.protocols.dmarc).toBe(true);

    const news = (await get(`/domains/${idOf('acme-news.example')}/dmarc-policy`)).data;
    expect(news.policy).toBe('none');
    const newsHealth = (await get(`/domains/${idOf('acme-news.example')}/health`)).data;
    expect(newsHealth.result).toBe('Partially protected');

    const shop = (await get(`/domains/${idOf('shop.acme.example')}/mta-sts`)).data;
    expect(shop.mode).toBe('testing');
  });

  it('shows the SPF record over the lookup limit as failing, with its lookup count', async () => {
    const current = (await get(`/domains/${idOf('acme-legacy.example')}/dns/current`)).data;
    expect(current.protocols.spf.current_status).toBe('connected');
    expect(current.protocols.spf.lookup_count).toBeGreaterThan(10);
    const health = (await get(`/domains/${idOf('acme-legacy.example')}/health`)).data;
    expect(health.protocols.spf).toBe(false);
  });

  it('lists the registered threat among the failed sources of the attacked domain', async () => {
    const body = (await get(`/domains/${idOf('acme-pay.example')}/failed-sources`)).data;
    const threats = body.failed_sources.filter(
      (s: { is_registered_threat: boolean }) => s.is_registered_threat,
    );
    expect(threats).toHaveLength(1);
    expect(threats[0]).toMatchObject({ source_name: 'bulletproof-hosting.test', status: 'failing' });
    expect(threats[0].dmarc.pass).toBe(0);
    expect(threats[0].total_count).toBeGreaterThan(1000);
    // Ordered by failing volume: the attack dwarfs every forwarding loss.
    expect(body.failed_sources[0].source_name).toBe('bulletproof-hosting.test');
  });

  it('names real-looking senders, compliant ones and the partially aligned ones', async () => {
    const body = (await get(`/domains/${idOf('acme.example')}/sending-services`, { limit: 20 })).data;
    const byName = new Map<string, { status: string; total_count: number }>(
      body.services.map((s: { source_name: string }) => [s.source_name, s]),
    );
    for (const name of ['Google', 'SendGrid', 'Mailchimp']) {
      expect(byName.get(name)?.status, name).toBe('compliant');
    }
    const news = (await get(`/domains/${idOf('acme-news.example')}/sending-services`, { limit: 20 })).data;
    const hubspot = news.services.find((s: { source_name: string }) => s.source_name === 'HubSpot');
    expect(hubspot?.status).toBe('failing');
  });

  it('has mail volume over the last 30 days, higher on weekdays than at weekends', async () => {
    const body = (await get(`/domains/${idOf('acme.example')}/mail-volume`)).data;
    expect(body.totals.total).toBeGreaterThan(100_000);
    expect(body.totals.dmarc_pass + body.totals.dmarc_fail).toBe(body.totals.total);
    expect(body.totals.rejected).toBeGreaterThan(0);
    const days = body.timeline.filter((d: { total: number }) => d.total > 0);
    expect(days.length).toBeGreaterThanOrEqual(29);
    const weekend = days.filter((d: { date: string }) => [0, 6].includes(new Date(d.date).getUTCDay()));
    const weekday = days.filter((d: { date: string }) => ![0, 6].includes(new Date(d.date).getUTCDay()));
    const mean = (xs: { total: number }[]) => xs.reduce((n, x) => n + x.total, 0) / xs.length;
    expect(mean(weekday)).toBeGreaterThan(2 * mean(weekend));
  });

  it('has 90 days of health history for the domains older than the history', async () => {
    const body = await get(`/domains/${idOf('acme.example')}/health/history`, {
      start_date: dateOf(-90),
      end_date: dateOf(0),
      limit: 100,
    });
    expect(body.pagination.total).toBe(91);
    const oldest = body.data[body.data.length - 1];
    expect(oldest.scanned_at).toBe(new Date(NOW.getTime() - 90 * DAY).toISOString());
    expect(body.data[0].scanned_at).toBe(NOW.toISOString());
    // The SPF outage of week 3 shows in the history: while SPF was missing under p=none the domain was only
    // partially protected; before and after, everything passed.
    const at = (day: number) =>
      body.data.find(
        (r: { scanned_at: string }) => r.scanned_at === new Date(NOW.getTime() + day * DAY).toISOString(),
      );
    for (const day of [-72, -71]) {
      expect(at(day)).toMatchObject({ result: 'Partially protected', protocols_passing: 4 });
      expect(at(day).protocols.spf).toBe(false);
    }
    for (const day of [-90, -73, -70, 0])
      expect(at(day)).toMatchObject({ result: 'Protected', protocols_passing: 5 });
  });

  it('records the planned DNS events: the SPF outage of week 3 and the DMARC delegation lost 3 days ago', async () => {
    const acme = (
      await get(`/domains/${idOf('acme.example')}/dns/timeline`, {
        record_type: 'spf',
        start_date: dateOf(-90),
        end_date: dateOf(0),
        limit: 100,
      })
    ).data;
    const spfEvents = acme.events
      .map((e: { action: string; occurred_at: string }) => [e.action, e.occurred_at])
      .sort((a: string[], b: string[]) => a[1]!.localeCompare(b[1]!));
    expect(spfEvents).toEqual([
      ['connected', new Date(NOW.getTime() - 90 * DAY).toISOString()],
      ['disconnected', new Date(NOW.getTime() - 72 * DAY).toISOString()],
      ['connected', new Date(NOW.getTime() - 70 * DAY).toISOString()],
    ]);

    const support = (
      await get(`/domains/${idOf('acme-support.example')}/dns/timeline`, { record_type: 'dmarc', limit: 100 })
    ).data;
    expect(support.summary.dmarc.current_status).toBe('disconnected');
    expect(support.summary.dmarc.last_disconnected).toBe(new Date(NOW.getTime() - 3 * DAY).toISOString());
    const health = (await get(`/domains/${idOf('acme-support.example')}/health`)).data;
    expect(health.protocols.dmarc).toBe(false);
  });

  it('keeps the DMARC roll-out in the record history: none, then quarantine, then reject', async () => {
    const body = (
      await get(`/domains/${idOf('acme.example')}/dns/snapshots`, {
        record_type: 'dmarc',
        start_date: dateOf(-90),
        end_date: dateOf(0),
        limit: 100,
      })
    ).data;
    const policies = body.dmarc
      .slice()
      .sort((a: { occurred_at: string }, b: { occurred_at: string }) =>
        a.occurred_at.localeCompare(b.occurred_at),
      )
      .map((s: { record_value: string }) => /p=(\w+)/.exec(s.record_value)?.[1]);
    expect(policies).toEqual(['none', 'quarantine', 'quarantine', 'reject']);
  });

  it('has TLS reports for the MTA-STS domains, with the expired certificate on the shop mx2', async () => {
    const body = (
      await get(`/domains/${idOf('shop.acme.example')}/tls-rpt/failures`, {
        start_date: dateOf(-30),
        end_date: dateOf(0),
      })
    ).data;
    expect(JSON.stringify(body)).toContain('certificate-expired');
  });

  it('gives the members the domains of their role: transactional for the manager, regional for the viewer', async () => {
    const visible = async (userId: number) => {
      const member = await svc.createToken(['domains:read'], { userId });
      const res = await svc.call('GET', '/domains', { token: member.token, query: { limit: 100 } });
      expect(res.status).toBe(200);
      return res.body.data.map((d: { fqdn: string }) => d.fqdn).sort();
    };
    const inGroup = (group: string) =>
      PORTFOLIO.filter((p) => p.group === group)
        .map((p) => p.fqdn)
        .sort();
    expect(await visible(seed.members.domainManager)).toEqual(inGroup('Transactional'));
    expect(await visible(seed.members.viewer)).toEqual(inGroup('Regional'));
    expect(await visible(seed.members.admin)).toHaveLength(PORTFOLIO.length);
  });

  it('is idempotent: seeding the seeded database again changes nothing', async () => {
    const count = () =>
      ['domains', 'health_snapshots', 'dns_events', 'dmarc_reports', 'tls_reports', 'dns_records'].map(
        (t) => (svc.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n,
      );
    const before = count();
    const again = await seedDemoData(svc.db, { now: NOW });
    expect(again.stats).toBeNull();
    expect(again.domainIds).toEqual(seed.domainIds);
    expect(count()).toEqual(before);
  });
});

describe('demo determinism', () => {
  let other: ServiceHarness;
  let otherToken: string;

  beforeAll(async () => {
    other = await startService({ seed: 'demo-data' });
    ({ token: otherToken } = await other.createToken(['domains:read']));
  }, 300_000);

  afterAll(async () => {
    other.expectNoContractViolations();
    await other.close();
  });

  it('gives identical answers from two databases seeded for the same day', async () => {
    const window = { start_date: dateOf(-90), end_date: dateOf(0) };
    const paths: [string, Record<string, string | number>?][] = [
      ['/domains', { limit: 100 }],
      ['/domain-groups'],
    ];
    for (const fqdn of ['acme.example', 'acme-pay.example', 'shop.acme.example', 'acme-old.example']) {
      const id = idOf(fqdn);
      paths.push(
        [`/domains/${id}/health`],
        [`/domains/${id}/health/history`, { ...window, limit: 100 }],
        [`/domains/${id}/mail-volume`, window],
        [`/domains/${id}/sending-services`, { ...window, limit: 50 }],
        [`/domains/${id}/failed-sources`, { ...window, limit: 50 }],
        [`/domains/${id}/dns/timeline`, { ...window, limit: 100 }],
        [`/domains/${id}/dns/history`, { ...window, limit: 100 }],
        [`/domains/${id}/dashboard-cache`],
      );
    }
    paths.push([`/domains/${idOf('shop.acme.example')}/tls-rpt/reports`, { ...window, limit: 100 }]);
    for (const [path, query] of paths) {
      const a = await svc.call('GET', path, { token, query });
      const b = await other.call('GET', path, { token: otherToken, query });
      expect(a.status, path).toBe(200);
      expect(b.body, path).toEqual(a.body);
    }
  });

  it('generates the same reports from the same seed and different ones from another seed', () => {
    const plan = PORTFOLIO.find((p) => p.fqdn === 'acme.example')!;
    const bytes = (seed: string) =>
      dmarcReportsFor(plan, NOW, -10, createPrng(seed)).map((r) => Buffer.from(r.bytes).toString());
    expect(bytes('one')).toEqual(bytes('one'));
    expect(bytes('two')).not.toEqual(bytes('one'));
  });

  it('leaves what a scan of the published records sees: a fresh scan changes nothing', async () => {
    other.clock.advance(3_600_000);
    const before = new Map<number, { result: string; protocols: unknown }>();
    for (const plan of PORTFOLIO) {
      const health = (await other.call('GET', `/domains/${idOf(plan.fqdn)}/health`, { token: otherToken }))
        .body.data;
      before.set(health.domain_id, { result: health.result, protocols: health.protocols });
    }
    const res = await other.sandbox('POST', '/scan', {});
    expect(res.status).toBe(200);
    expect(res.body.data.scans).toHaveLength(PORTFOLIO.length);
    for (const scan of res.body.data.scans) {
      expect(scan.events, scan.fqdn).toEqual([]);
      expect({ result: scan.result, protocols: scan.protocols }, scan.fqdn).toEqual(
        before.get(scan.domain_id),
      );
    }
  });
});

describe('the demo seeded just after midnight UTC', () => {
  it('has each domain’s dashboard snapshot for today’s default window before yesterday’s reports arrive', async () => {
    const early = await startService({
      seed: 'demo-data',
      clock: createManualClock('2026-06-15T00:30:00.000Z'),
    });
    try {
      const { token: earlyToken } = await early.createToken(['domains:read']);
      const domains = await early.call('GET', '/domains', { token: earlyToken, query: { limit: 100 } });
      const acme = (domains.body.data as { id: number; fqdn: string }[]).find(
        (d) => d.fqdn === 'acme.example',
      )!;
      const cache = await early.call('GET', `/domains/${acme.id}/dashboard-cache`, { token: earlyToken });
      expect(cache.status).toBe(200);
      expect(cache.body.data).toMatchObject({ cached: true, end_date: '2026-06-15' });
      expect(cache.body.data.data.totals.total).toBeGreaterThan(0);
    } finally {
      await stopService(early);
    }
  });
});
