// Mail analytics over real HTTP, from reports ingested through the sandbox: mail volume (totals, per-day
// timeline, dispositions, the begin-day rule, default window), sending sources with compliance and status at
// the thresholds (compliant ≥ 98 %, partial ≥ 50 %, failing below, judged on the one-decimal figure), failed
// sources by failing volume with the threat flag, and the dashboard cache (absent, computed on ingestion and on
// demand, refreshed by later reports).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAccount,
  aggregateXml,
  createDomain,
  ingest,
  readFixture,
  startReportsWorld,
  tlsReportJson,
  type BuiltRecord,
  type ReportsWorld,
} from './reportsSupport.ts';
import { stopService } from '../../support/serviceHarness.ts';

let world: ReportsWorld;
let otherTeamDomain: number;
let otherToken: string;

beforeAll(async () => {
  world = await startReportsWorld();
  const other = await addAccount(world.svc, 'Other Co');
  otherToken = (await world.svc.createToken(['domains:read', 'domains:write'], { userId: other.ownerUserId }))
    .token;
  otherTeamDomain = await createDomain(world.svc, otherToken, 'other-analytics.example');
});

afterAll(() => stopService(world.svc));

const get = (path: string, query: Record<string, string | number> = {}, token = world.token) =>
  world.svc.call('GET', path, { token, query });

/** Records of one source: `pass` messages passing DMARC (aligned DKIM), `fail` failing both. */
function source(ip: string, pass: number, fail: number): BuiltRecord[] {
  return [
    ...(pass > 0 ? [{ ip, count: pass, dkim: 'pass' as const }] : []),
    ...(fail > 0 ? [{ ip, count: fail }] : []),
  ];
}

const zeroDay = { total: 0, delivered: 0, quarantined: 0, rejected: 0, dmarc_pass: 0, dmarc_fail: 0 };

describe('mail volume', () => {
  let exampleCom: number;

  beforeAll(async () => {
    exampleCom = await createDomain(world.svc, world.token, 'example.com');
    await ingest(
      world.svc,
      'dmarc',
      readFixture('dmarc-aggregate', 'usssa.com!example.com!1538784000!1538870399.xml'),
    );
    // Begins 23:30 UTC on June 10 and ends the next evening: every message counts on June 10.
    await ingest(
      world.svc,
      'dmarc',
      aggregateXml({
        domain: 'example.com',
        reportId: 'mv-1',
        begin: '2026-06-10T23:30:00Z',
        end: '2026-06-11T23:29:59Z',
        records: [
          { ip: '192.0.2.1', count: 10, disposition: 'none', dkim: 'pass' },
          { ip: '192.0.2.2', count: 5, disposition: 'pass', spf: 'pass' },
          { ip: '192.0.2.3', count: 3, disposition: 'quarantine' },
          { ip: '192.0.2.4', count: 2, disposition: 'reject' },
        ],
      }),
    );
  });

  it('shows a fixture report on its day, with a zero day before and after', async () => {
    const res = await get(`/domains/${exampleCom}/mail-volume`, {
      start_date: '2018-10-05',
      end_date: '2018-10-07',
    });
    expect(res.status).toBe(200);
    const day = { total: 2, delivered: 2, quarantined: 0, rejected: 0, dmarc_pass: 0, dmarc_fail: 2 };
    expect(res.body.data).toEqual({
      domain_id: exampleCom,
      fqdn: 'example.com',
      start_date: '2018-10-05',
      end_date: '2018-10-07',
      totals: day,
      timeline: [
        { date: '2018-10-05', ...zeroDay },
        { date: '2018-10-06', ...day },
        { date: '2018-10-07', ...zeroDay },
      ],
    });
  });

  it('counts delivered (none or pass), quarantined and rejected by disposition, on the day the report begins', async () => {
    const res = await get(`/domains/${exampleCom}/mail-volume`, {
      start_date: '2026-06-10',
      end_date: '2026-06-11',
    });
    const day = { total: 20, delivered: 15, quarantined: 3, rejected: 2, dmarc_pass: 15, dmarc_fail: 5 };
    expect(res.body.data.totals).toEqual(day);
    expect(res.body.data.timeline).toEqual([
      { date: '2026-06-10', ...day },
      { date: '2026-06-11', ...zeroDay },
    ]);
  });

  it('defaults to the 30 days before today … today, one timeline entry per day', async () => {
    const res = await get(`/domains/${exampleCom}/mail-volume`);
    expect(res.body.data.start_date).toBe('2026-05-16');
    expect(res.body.data.end_date).toBe('2026-06-15');
    expect(res.body.data.timeline).toHaveLength(31);
    expect(res.body.data.timeline[0].date).toBe('2026-05-16');
    expect(res.body.data.timeline[30].date).toBe('2026-06-15');
    // The 2018 fixture is outside the window; the June 10 report is inside.
    expect(res.body.data.totals.total).toBe(20);
  });

  it('answers 422 when start_date is after end_date', async () => {
    const res = await get(`/domains/${exampleCom}/mail-volume`, {
      start_date: '2026-06-12',
      end_date: '2026-06-10',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'query.start_date', message: expect.any(String) }]);
  });

  it("answers 404 for another team's domain, 403 without domains:read", async () => {
    expect((await get(`/domains/${otherTeamDomain}/mail-volume`)).status).toBe(404);
    const { token } = await world.svc.createToken(['me:read'], { userId: world.ownerUserId });
    const res = await get(`/domains/${exampleCom}/mail-volume`, {}, token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
  });
});

describe('sending services and failed sources', () => {
  let domainId: number;
  const day = { start_date: '2026-06-01', end_date: '2026-06-01' };
  // (DMARC pass, fail) per source, chosen at the thresholds and at the rounding edges.
  const SOURCES: Record<string, [number, number]> = {
    '203.0.113.1': [98, 2], // 98.0 → compliant (exactly the threshold)
    '203.0.113.2': [97, 3], // 97.0 → partial
    '203.0.113.3': [1959, 41], // 97.95 → shown 98.0 → compliant
    '203.0.113.4': [50, 50], // 50.0 → partial (exactly the threshold)
    '203.0.113.5': [49, 51], // 49.0 → failing
    '203.0.113.6': [999, 1], // 99.9 → compliant
    '203.0.113.7': [0, 100], // 0.0 → failing
    '203.0.113.8': [4999, 5001], // 49.99 → shown 50.0 → partial
    '203.0.113.9': [30, 0], // 100.0 → compliant, never failing
  };

  beforeAll(async () => {
    domainId = await createDomain(world.svc, world.token, 'compliance.example');
    await ingest(
      world.svc,
      'dmarc',
      aggregateXml({
        domain: 'compliance.example',
        reportId: 'cmp-1',
        begin: '2026-06-01T00:00:00Z',
        records: Object.entries(SOURCES).flatMap(([ip, [pass, fail]]) => source(ip, pass, fail)),
      }),
    );
  });

  const entry = (ip: string, compliance: number, status: string) => {
    const [pass, fail] = SOURCES[ip]!;
    return {
      source_name: ip,
      total_count: pass + fail,
      dmarc: { pass, fail },
      compliance,
      status,
      is_registered_threat: false,
    };
  };

  it('lists sources by volume with compliance rounded to one decimal and the status of its thresholds', async () => {
    const res = await get(`/domains/${domainId}/sending-services`, day);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      domain_id: domainId,
      fqdn: 'compliance.example',
      services: [
        entry('203.0.113.8', 50, 'partial'),
        entry('203.0.113.3', 98, 'compliant'),
        entry('203.0.113.6', 99.9, 'compliant'),
        // Equal volumes: the more failing first.
        entry('203.0.113.7', 0, 'failing'),
        entry('203.0.113.5', 49, 'failing'),
        entry('203.0.113.4', 50, 'partial'),
        entry('203.0.113.2', 97, 'partial'),
        entry('203.0.113.1', 98, 'compliant'),
        entry('203.0.113.9', 100, 'compliant'),
      ],
    });
  });

  it('honours limit (default 10)', async () => {
    const res = await get(`/domains/${domainId}/sending-services`, { ...day, limit: 2 });
    expect(res.body.data.services.map((s: { source_name: string }) => s.source_name)).toEqual([
      '203.0.113.8',
      '203.0.113.3',
    ]);
  });

  it('lists only sources with DMARC failures, by failing volume descending', async () => {
    const res = await get(`/domains/${domainId}/failed-sources`, day);
    expect(res.status).toBe(200);
    expect(res.body.data.domain_id).toBe(domainId);
    expect(res.body.data.fqdn).toBe('compliance.example');
    expect(
      res.body.data.failed_sources.map((s: { source_name: string; dmarc: { fail: number } }) => [
        s.source_name,
        s.dmarc.fail,
      ]),
    ).toEqual([
      ['203.0.113.8', 5001],
      ['203.0.113.7', 100],
      ['203.0.113.5', 51],
      ['203.0.113.4', 50],
      ['203.0.113.3', 41],
      ['203.0.113.2', 3],
      ['203.0.113.1', 2],
      ['203.0.113.6', 1],
    ]);
    expect(res.body.data.failed_sources[0]).toEqual(entry('203.0.113.8', 50, 'partial'));
    const limited = await get(`/domains/${domainId}/failed-sources`, { ...day, limit: 3 });
    expect(limited.body.data.failed_sources).toHaveLength(3);
  });

  it('is empty for a window without reports', async () => {
    const window = { start_date: '2026-05-01', end_date: '2026-05-31' };
    expect((await get(`/domains/${domainId}/sending-services`, window)).body.data.services).toEqual([]);
    expect((await get(`/domains/${domainId}/failed-sources`, window)).body.data.failed_sources).toEqual([]);
  });

  it('flags a source as a registered threat once its address is registered (POST /_sandbox/threats)', async () => {
    const before = await get(`/domains/${domainId}/failed-sources`, day);
    expect(
      before.body.data.failed_sources.every(
        (s: { is_registered_threat: boolean }) => !s.is_registered_threat,
      ),
    ).toBe(true);
    expect((await world.svc.sandbox('POST', '/threats', { source_name: '203.0.113.5' })).status).toBe(201);
    for (const [path, key] of [
      ['failed-sources', 'failed_sources'],
      ['sending-services', 'services'],
    ] as const) {
      const res = await get(`/domains/${domainId}/${path}`, day);
      const flagged = res.body.data[key]
        .filter((s: { is_registered_threat: boolean }) => s.is_registered_threat)
        .map((s: { source_name: string }) => s.source_name);
      expect(flagged).toEqual(['203.0.113.5']);
    }
  });

  it('flags a source registered by its name, whatever its addresses', async () => {
    await ingest(
      world.svc,
      'dmarc',
      aggregateXml({
        domain: 'compliance.example',
        reportId: 'cmp-2',
        begin: '2026-06-02T00:00:00Z',
        records: [
          ...source('167.89.1.2', 1, 9),
          ...source('149.72.10.10', 0, 5),
          ...source('192.0.2.50', 0, 2),
        ],
      }),
    );
    await world.svc.sandbox('POST', '/threats', { source_name: 'sendgrid' });
    const res = await get(`/domains/${domainId}/failed-sources`, {
      start_date: '2026-06-02',
      end_date: '2026-06-02',
    });
    expect(res.body.data.failed_sources).toEqual([
      {
        source_name: 'SendGrid',
        total_count: 15,
        dmarc: { pass: 1, fail: 14 },
        compliance: 6.7,
        status: 'failing',
        is_registered_threat: true,
      },
      {
        source_name: '192.0.2.50',
        total_count: 2,
        dmarc: { pass: 0, fail: 2 },
        compliance: 0,
        status: 'failing',
        is_registered_threat: false,
      },
    ]);
  });

  it("answers 404 for another team's domain", async () => {
    expect((await get(`/domains/${otherTeamDomain}/sending-services`)).status).toBe(404);
    expect((await get(`/domains/${otherTeamDomain}/failed-sources`)).status).toBe(404);
  });
});

describe('members see only the domains granted to them', () => {
  it('answers 404 to a viewer for a domain not granted, 200 once granted', async () => {
    const seed = world.svc.seed!;
    const { token: demoOwner } = await world.svc.createToken(['domains:read', 'domains:write']);
    const domainId = await createDomain(world.svc, demoOwner, 'demo-analytics.example');
    const { token: viewer } = await world.svc.createToken(['domains:read'], { userId: seed.members.viewer });
    expect((await get(`/domains/${domainId}/mail-volume`, {}, viewer)).status).toBe(404);
    expect((await get(`/domains/${domainId}/dashboard-cache`, {}, viewer)).status).toBe(404);
    world.svc.db
      .prepare('INSERT INTO user_domains (user_id, domain_id) VALUES (?, ?)')
      .run(seed.members.viewer, domainId);
    expect((await get(`/domains/${domainId}/mail-volume`, {}, viewer)).status).toBe(200);
  });
});

describe('dashboard cache', () => {
  let domainId: number;
  const custom = { start_date: '2026-06-01', end_date: '2026-06-05' };
  const early = { start_date: '2026-05-01', end_date: '2026-05-02' };

  beforeAll(async () => {
    domainId = await createDomain(world.svc, world.token, 'dash.example');
  });

  it('answers cached false with data null while no snapshot exists', async () => {
    const res = await get(`/domains/${domainId}/dashboard-cache`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      domain_id: domainId,
      fqdn: 'dash.example',
      cached: false,
      cached_at: null,
      start_date: '2026-05-16',
      end_date: '2026-06-15',
      data: null,
    });
  });

  it('has the default window computed when a report is ingested, matching the live reads', async () => {
    world.svc.clock.set('2026-06-15T12:05:00.000Z');
    await ingest(
      world.svc,
      'dmarc',
      aggregateXml({
        domain: 'dash.example',
        reportId: 'dash-1',
        begin: '2026-06-12T00:00:00Z',
        records: [...source('192.0.2.60', 90, 10), ...source('192.0.2.61', 0, 5)],
      }),
    );
    const res = await get(`/domains/${domainId}/dashboard-cache`);
    expect(res.body.data).toMatchObject({ cached: true, cached_at: '2026-06-15T12:05:00.000Z' });
    const volume = await get(`/domains/${domainId}/mail-volume`);
    const services = await get(`/domains/${domainId}/sending-services`);
    const failed = await get(`/domains/${domainId}/failed-sources`);
    expect(res.body.data.data).toEqual({
      totals: volume.body.data.totals,
      timeline: volume.body.data.timeline,
      services: services.body.data.services,
      failed_sources: failed.body.data.failed_sources,
      reports: { dmarc: 1, tls: 0 },
      tls_sessions: { successful: 0, failed: 0 },
    });
    expect(res.body.data.data.totals.total).toBe(105);
  });

  it('computes another window on demand (POST /_sandbox/dashboard-cache), then serves it', async () => {
    expect((await get(`/domains/${domainId}/dashboard-cache`, custom)).body.data.cached).toBe(false);
    const made = await world.svc.sandbox('POST', '/dashboard-cache', { domain_id: domainId, ...custom });
    expect(made.status).toBe(201);
    expect(
      (await world.svc.sandbox('POST', '/dashboard-cache', { domain_id: domainId, ...early })).status,
    ).toBe(201);
    const res = await get(`/domains/${domainId}/dashboard-cache`, custom);
    expect(res.body.data).toMatchObject({ cached: true, ...custom, cached_at: '2026-06-15T12:05:00.000Z' });
    expect(res.body.data.data.totals.total).toBe(0);
    expect(res.body.data.data).toEqual(made.body.data.data);
  });

  it('refreshes the cached windows holding a new report’s day, and leaves the others', async () => {
    world.svc.clock.set('2026-06-15T13:00:00.000Z');
    await ingest(
      world.svc,
      'dmarc',
      aggregateXml({
        domain: 'dash.example',
        reportId: 'dash-2',
        begin: '2026-06-03T00:00:00Z',
        records: source('192.0.2.62', 7, 0),
      }),
    );
    await ingest(
      world.svc,
      'tls',
      tlsReportJson({
        domain: 'dash.example',
        reportId: 'dash-tls-1',
        start: '2026-06-04T00:00:00Z',
        successful: 40,
        failed: 2,
      }),
    );
    const refreshed = await get(`/domains/${domainId}/dashboard-cache`, custom);
    expect(refreshed.body.data.cached_at).toBe('2026-06-15T13:00:00.000Z');
    expect(refreshed.body.data.data.totals.total).toBe(7);
    expect(refreshed.body.data.data.reports).toEqual({ dmarc: 1, tls: 1 });
    expect(refreshed.body.data.data.tls_sessions).toEqual({ successful: 40, failed: 2 });
    const untouched = await get(`/domains/${domainId}/dashboard-cache`, early);
    expect(untouched.body.data.cached_at).toBe('2026-06-15T12:05:00.000Z');
    const current = await get(`/domains/${domainId}/dashboard-cache`);
    expect(current.body.data.data.totals.total).toBe(112);
  });

  it('refuses a recompute for an unknown domain (404) or a reversed window (422)', async () => {
    expect((await world.svc.sandbox('POST', '/dashboard-cache', { domain_id: 999_999 })).status).toBe(404);
    const reversed = await world.svc.sandbox('POST', '/dashboard-cache', {
      domain_id: domainId,
      start_date: '2026-06-05',
      end_date: '2026-06-01',
    });
    expect(reversed.status).toBe(422);
  });

  it("answers 404 for another team's domain", async () => {
    expect((await get(`/domains/${otherTeamDomain}/dashboard-cache`)).status).toBe(404);
    expect((await get(`/domains/${otherTeamDomain}/dashboard-cache`, {}, otherToken)).status).toBe(200);
  });
});
