// GET /domains/{id}/health and /health/history over real HTTP: the newest guard scan, the live fallback
// before any scan, history order, pagination and date windows, and the access errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService, type ServiceHarness } from '../../support/serviceHarness.ts';
import { addDomain, addTeam, GOOD, publish, publishAll, scan } from './scanSupport.ts';

let svc: ServiceHarness;
let token: string;

beforeAll(async () => {
  svc = await startService();
  token = (await svc.createToken(['domains:read'])).token;
});

afterAll(() => stopService(svc));

async function get(path: string, query?: Record<string, string | number>) {
  return svc.call('GET', path, { token, query });
}

describe('GET /domains/{id}/health', () => {
  it('falls back to the live verification flags before the first scan (source live)', async () => {
    const id = addDomain(svc, 'live.example');
    await publishAll(svc, 'live.example', {
      dmarc: 'v=DMARC1; p=quarantine',
      mx: '10 live-example.mail.protection.outlook.com',
    });
    svc.db
      .prepare('UPDATE domains SET dmarc_verified = 1, spf_verified = 1, verified_at = ? WHERE id = ?')
      .run('2026-06-14T09:00:00.000Z', id);
    svc.clock.set('2026-06-15T12:00:00.000Z');
    const res = await get(`/domains/${id}/health`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      domain_id: id,
      fqdn: 'live.example',
      source: 'live',
      result: 'Protected',
      mail_provider: 'Microsoft 365',
      protocols: { dmarc: true, spf: true, mta_sts: false, tls_rpt: false, bimi: false },
      protocols_passing: 2,
      total_protocols: 5,
      dmarc_record: 'v=DMARC1; p=quarantine',
      scanned_at: '2026-06-15T12:00:00.000Z',
    });
  });

  it('answers an unverified, unscanned domain from its (unset) flags, with an empty DMARC record', async () => {
    const id = addDomain(svc, 'blank.example');
    const res = await get(`/domains/${id}/health`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      source: 'live',
      result: 'Unprotected',
      mail_provider: 'None',
      protocols_passing: 0,
      dmarc_record: '',
    });
  });

  it('serves the newest scan once one exists (source guard_history)', async () => {
    const id = addDomain(svc, 'scanned.example');
    await publishAll(svc, 'scanned.example', { bimi: null });
    await scan(svc, id, '2026-06-14T06:00:00.000Z');
    await publish(svc, 'scanned.example', 'bimi', GOOD.bimi);
    await scan(svc, id, '2026-06-15T06:00:00.000Z');
    svc.clock.set('2026-06-15T12:00:00.000Z');
    const res = await get(`/domains/${id}/health`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      domain_id: id,
      fqdn: 'scanned.example',
      source: 'guard_history',
      result: 'Protected',
      mail_provider: 'Google Workspace',
      protocols: { dmarc: true, spf: true, mta_sts: true, tls_rpt: true, bimi: true },
      protocols_passing: 5,
      total_protocols: 5,
      dmarc_record: GOOD.dmarc,
      scanned_at: '2026-06-15T06:00:00.000Z',
    });
  });

  it('ignores the verification flags once the domain was scanned', async () => {
    const id = addDomain(svc, 'flags-vs-scan.example');
    await scan(svc, id, '2026-06-15T06:00:00.000Z');
    svc.db
      .prepare('UPDATE domains SET dmarc_verified = 1, verified_at = ? WHERE id = ?')
      .run('2026-06-15T07:00:00.000Z', id);
    const res = await get(`/domains/${id}/health`);
    expect(res.body.data).toMatchObject({ source: 'guard_history', protocols_passing: 0 });
  });
});

describe('GET /domains/{id}/health/history', () => {
  let id: number;
  // Scans at 08:00 on each of these days (the clock stands at 2026-06-15T12:00Z afterwards).
  const days = [
    '2026-05-01',
    '2026-05-15',
    '2026-05-16',
    '2026-05-31',
    '2026-06-01',
    '2026-06-14',
    '2026-06-15',
  ];

  beforeAll(async () => {
    id = addDomain(svc, 'history.example');
    await publishAll(svc, 'history.example');
    for (const [i, day] of days.entries()) {
      // Every other scan without SPF, so rows differ visibly.
      await publish(svc, 'history.example', 'spf', i % 2 === 0 ? GOOD.spf : null);
      await scan(svc, id, `${day}T08:00:00.000Z`);
    }
    svc.clock.set('2026-06-15T12:00:00.000Z');
  });

  it('lists the scans of the last 30 days, newest first (older ones are left out)', async () => {
    const res = await get(`/domains/${id}/health/history`);
    expect(res.status).toBe(200);
    // 30 days before 2026-06-15 is 2026-05-16: inclusive.
    expect(res.body.data.map((r: { scanned_at: string }) => r.scanned_at.slice(0, 10))).toEqual([
      '2026-06-15',
      '2026-06-14',
      '2026-06-01',
      '2026-05-31',
      '2026-05-16',
    ]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 5, has_more: false });
    const newest = res.body.data[0];
    expect(newest).toEqual({
      id: expect.any(Number),
      result: 'Protected',
      mail_provider: 'Google Workspace',
      protocols: { dmarc: true, spf: true, mta_sts: true, tls_rpt: true, bimi: true },
      protocols_passing: 5,
      total_protocols: 5,
      scanned_at: '2026-06-15T08:00:00.000Z',
    });
    expect(res.body.data[1]).toMatchObject({ protocols_passing: 4, protocols: { spf: false } });
  });

  it('includes both ends of an explicit window', async () => {
    const res = await get(`/domains/${id}/health/history`, {
      start_date: '2026-05-15',
      end_date: '2026-05-31',
    });
    expect(res.body.data.map((r: { scanned_at: string }) => r.scanned_at.slice(0, 10))).toEqual([
      '2026-05-31',
      '2026-05-16',
      '2026-05-15',
    ]);
  });

  it('pages with page and limit', async () => {
    const query = { start_date: '2026-01-01', end_date: '2026-06-15', limit: 3 };
    const first = await get(`/domains/${id}/health/history`, query);
    expect(first.body.pagination).toEqual({ page: 1, limit: 3, total: 7, has_more: true });
    const third = await get(`/domains/${id}/health/history`, { ...query, page: 3 });
    expect(third.body.pagination).toEqual({ page: 3, limit: 3, total: 7, has_more: false });
    expect(third.body.data.map((r: { scanned_at: string }) => r.scanned_at.slice(0, 10))).toEqual([
      '2026-05-01',
    ]);
  });

  it('answers 422 for a window that ends before it starts, a malformed date and a limit out of range', async () => {
    for (const query of [
      { start_date: '2026-06-10', end_date: '2026-06-01' },
      { start_date: '2026-13-01' },
      { limit: 0 },
      { limit: 101 },
      { page: 0 },
    ] as Record<string, string | number>[]) {
      const res = await get(`/domains/${id}/health/history`, query);
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
    }
  });
});

describe('access', () => {
  it('answers 404 for another team’s domain and an unknown id', async () => {
    const other = await addTeam(svc, 'Health Other Team');
    const theirs = addDomain(svc, 'theirs-health.example', other);
    await scan(svc, theirs, '2026-06-15T10:00:00.000Z');
    for (const path of [
      `/domains/${theirs}/health`,
      `/domains/${theirs}/health/history`,
      '/domains/987654/health',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('lets a member read only the domains granted to them', async () => {
    const granted = addDomain(svc, 'granted-health.example');
    const hidden = addDomain(svc, 'hidden-health.example');
    const viewer = svc.seed!.members.viewer;
    svc.db.prepare('INSERT INTO user_domains (user_id, domain_id) VALUES (?, ?)').run(viewer, granted);
    const viewerToken = (await svc.createToken(['domains:read'], { userId: viewer })).token;
    expect((await svc.call('GET', `/domains/${granted}/health`, { token: viewerToken })).status).toBe(200);
    const res = await svc.call('GET', `/domains/${hidden}/health`, { token: viewerToken });
    expect(res.status).toBe(404);
  });

  it('answers 403 insufficient_scope without domains:read and 401 without a token', async () => {
    const id = addDomain(svc, 'scope-health.example');
    const narrow = (await svc.createToken(['me:read'])).token;
    const res = await svc.call('GET', `/domains/${id}/health`, { token: narrow });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
    expect((await svc.call('GET', `/domains/${id}/health/history`)).status).toBe(401);
  });

  it('answers 422 for a non-integer domain id', async () => {
    const res = await get('/domains/abc/health');
    expect(res.status).toBe(422);
  });
});
