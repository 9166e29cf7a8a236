// The DNS timeline operations over real HTTP — /dns/timeline, /dns/current, /dns/history, /dns/changes and
// /dns/snapshots — on a domain whose records changed over two months of guard scans: the summary counts,
// every filter, the default 30-day window and explicit inclusive windows, orders, limits and pages, errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService, type ServiceHarness } from '../../support/serviceHarness.ts';
import { addDomain, addTeam, GOOD, publish, publishAll, scan } from './scanSupport.ts';

let svc: ServiceHarness;
let token: string;
let id: number;
let flappy: number;

const SPF_V2 = 'v=spf1 ip4:198.51.100.0/24 -all';
const SPF_V3 = 'v=spf1 ip4:203.0.113.0/24 include:inc.timeline-spf.example -all';
const DMARC_V2 = 'v=DMARC1; p=quarantine; rua=mailto:dmarc@reports.example';
const NOW = '2026-06-15T12:00:00.000Z';

beforeAll(async () => {
  svc = await startService();
  token = (await svc.createToken(['domains:read'])).token;

  // timeline.example: everything published on 04-20 (outside the default window, which starts 05-16).
  id = addDomain(svc, 'timeline.example');
  await publish(svc, 'inc.timeline-spf.example', 'spf', 'v=spf1 ip4:192.0.2.99 -all');
  await publishAll(svc, 'timeline.example');
  await scan(svc, id, '2026-04-20T08:00:00.000Z');
  await publish(svc, 'timeline.example', 'spf', null);
  await scan(svc, id, '2026-05-20T08:00:00.000Z');
  await publish(svc, 'timeline.example', 'spf', SPF_V2);
  await scan(svc, id, '2026-05-25T08:00:00.000Z');
  await publish(svc, 'timeline.example', 'bimi', null);
  await scan(svc, id, '2026-06-01T08:00:00.000Z');
  await publish(svc, 'timeline.example', 'spf', null);
  await publish(svc, 'timeline.example', 'dmarc', DMARC_V2);
  await scan(svc, id, '2026-06-05T08:00:00.000Z');
  await publish(svc, 'timeline.example', 'spf', SPF_V3);
  await scan(svc, id, '2026-06-10T08:00:00.000Z');
  await scan(svc, id, '2026-06-15T08:00:00.000Z');

  // flappy.example: SPF removed and restored daily, 16 events and 12 SPF snapshots inside the window.
  flappy = addDomain(svc, 'flappy.example');
  await publishAll(svc, 'flappy.example');
  await scan(svc, flappy, '2026-06-02T06:00:00.000Z');
  for (let day = 3; day <= 13; day++) {
    await publish(svc, 'flappy.example', 'spf', day % 2 === 1 ? null : GOOD.spf);
    await scan(svc, flappy, `2026-06-${String(day).padStart(2, '0')}T06:00:00.000Z`);
  }
  svc.clock.set(NOW);
});

afterAll(() => stopService(svc));

async function get(path: string, query?: Record<string, string | number>) {
  const res = await svc.call('GET', path, { token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

type Event = { record_type: string; action: string; occurred_at: string; record_value: string | null };
const brief = (events: Event[]) =>
  events.map((e) => `${e.occurred_at.slice(5, 10)} ${e.record_type} ${e.action}`);

describe('GET /domains/{id}/dns/timeline', () => {
  it('summarises all five protocols: current status, last transitions, counts in the window', async () => {
    const data = (await get(`/domains/${id}/dns/timeline`)).data;
    expect(data.domain_id).toBe(id);
    expect(data.fqdn).toBe('timeline.example');
    expect(data.summary).toEqual({
      dmarc: {
        current_status: 'connected',
        last_connected: '2026-04-20T08:00:00.000Z',
        last_disconnected: null,
        connection_count: 0,
        disconnection_count: 0,
      },
      spf: {
        current_status: 'connected',
        last_connected: '2026-06-10T08:00:00.000Z',
        last_disconnected: '2026-06-05T08:00:00.000Z',
        connection_count: 2,
        disconnection_count: 2,
      },
      mta_sts: {
        current_status: 'connected',
        last_connected: '2026-04-20T08:00:00.000Z',
        last_disconnected: null,
        connection_count: 0,
        disconnection_count: 0,
      },
      tls_rpt: {
        current_status: 'connected',
        last_connected: '2026-04-20T08:00:00.000Z',
        last_disconnected: null,
        connection_count: 0,
        disconnection_count: 0,
      },
      bimi: {
        current_status: 'disconnected',
        last_connected: '2026-04-20T08:00:00.000Z',
        last_disconnected: '2026-06-01T08:00:00.000Z',
        connection_count: 0,
        disconnection_count: 1,
      },
    });
  });

  it('lists the events of the last 30 days, newest first (the 04-20 connections are outside)', async () => {
    const { events } = (await get(`/domains/${id}/dns/timeline`)).data;
    expect(brief(events)).toEqual([
      '06-10 spf connected',
      '06-05 spf disconnected',
      '06-01 bimi disconnected',
      '05-25 spf connected',
      '05-20 spf disconnected',
    ]);
    expect(events[0]).toEqual({
      id: expect.any(Number),
      record_type: 'spf',
      action: 'connected',
      record_value: SPF_V3,
      status_before: 'disconnected',
      status_after: 'connected',
      occurred_at: '2026-06-10T08:00:00.000Z',
    });
  });

  it('filters events by record_type, action and both, leaving the summary whole', async () => {
    const spf = (await get(`/domains/${id}/dns/timeline`, { record_type: 'spf' })).data;
    expect(brief(spf.events)).toEqual([
      '06-10 spf connected',
      '06-05 spf disconnected',
      '05-25 spf connected',
      '05-20 spf disconnected',
    ]);
    expect(Object.keys(spf.summary).sort()).toEqual(['bimi', 'dmarc', 'mta_sts', 'spf', 'tls_rpt']);
    const disconnected = (await get(`/domains/${id}/dns/timeline`, { action: 'disconnected' })).data.events;
    expect(brief(disconnected)).toEqual([
      '06-05 spf disconnected',
      '06-01 bimi disconnected',
      '05-20 spf disconnected',
    ]);
    const both = (await get(`/domains/${id}/dns/timeline`, { record_type: 'spf', action: 'connected' })).data
      .events;
    expect(brief(both)).toEqual(['06-10 spf connected', '05-25 spf connected']);
    const none = (await get(`/domains/${id}/dns/timeline`, { record_type: 'mta_sts' })).data.events;
    expect(none).toEqual([]);
  });

  it('takes an explicit window inclusive at both ends, for events and summary counts', async () => {
    const data = (
      await get(`/domains/${id}/dns/timeline`, { start_date: '2026-05-20', end_date: '2026-06-05' })
    ).data;
    expect(brief(data.events)).toEqual([
      '06-05 spf disconnected',
      '06-01 bimi disconnected',
      '05-25 spf connected',
      '05-20 spf disconnected',
    ]);
    expect(data.summary.spf).toMatchObject({ connection_count: 1, disconnection_count: 2 });
    const early = (
      await get(`/domains/${id}/dns/timeline`, { start_date: '2026-04-01', end_date: '2026-04-30' })
    ).data;
    expect(early.events).toHaveLength(5);
    expect(early.summary.dmarc.connection_count).toBe(1);
    expect(early.summary.spf.disconnection_count).toBe(0);
  });

  it('returns 10 events by default and `limit` when given', async () => {
    const all = await svc.call('GET', `/domains/${flappy}/dns/changes`, { token });
    expect(all.body.pagination.total).toBe(16);
    const byDefault = (await get(`/domains/${flappy}/dns/timeline`)).data.events;
    expect(byDefault).toHaveLength(10);
    expect(byDefault[0].occurred_at).toBe('2026-06-13T06:00:00.000Z');
    expect((await get(`/domains/${flappy}/dns/timeline`, { limit: 3 })).data.events).toHaveLength(3);
    expect((await get(`/domains/${flappy}/dns/timeline`, { limit: 100 })).data.events).toHaveLength(16);
  });

  it('reports every protocol disconnected with no events for a domain never scanned', async () => {
    const fresh = addDomain(svc, 'never-scanned-timeline.example');
    const data = (await get(`/domains/${fresh}/dns/timeline`)).data;
    expect(data.events).toEqual([]);
    for (const entry of Object.values(data.summary)) {
      expect(entry).toEqual({
        current_status: 'disconnected',
        last_connected: null,
        last_disconnected: null,
        connection_count: 0,
        disconnection_count: 0,
      });
    }
  });
});

describe('GET /domains/{id}/dns/current', () => {
  it('gives each protocol its state, record and last transitions; spf adds lookup_count', async () => {
    const data = (await get(`/domains/${id}/dns/current`)).data;
    expect(data.domain_id).toBe(id);
    expect(data.protocols.spf).toEqual({
      current_status: 'connected',
      verified: true,
      status: 'valid',
      last_connected: '2026-06-10T08:00:00.000Z',
      last_disconnected: '2026-06-05T08:00:00.000Z',
      record_value: SPF_V3,
      lookup_count: 1,
    });
    expect(data.protocols.bimi).toEqual({
      current_status: 'disconnected',
      verified: false,
      status: 'missing',
      last_connected: '2026-04-20T08:00:00.000Z',
      last_disconnected: '2026-06-01T08:00:00.000Z',
      record_value: null,
    });
    expect(data.protocols.dmarc).toMatchObject({ status: 'valid', verified: true, record_value: DMARC_V2 });
    expect(data.protocols.dmarc).not.toHaveProperty('lookup_count');
    expect(data.protocols.mta_sts.record_value).toBe(GOOD.mta_sts);
    expect(data.protocols.tls_rpt.record_value).toBe(GOOD.tls_rpt);
  });

  it('shows the verification flags of a domain never scanned, as not_scanned', async () => {
    const fresh = addDomain(svc, 'never-scanned-current.example');
    svc.db.prepare('UPDATE domains SET spf_verified = 1 WHERE id = ?').run(fresh);
    const { protocols } = (await get(`/domains/${fresh}/dns/current`)).data;
    expect(protocols.spf).toEqual({
      current_status: 'disconnected',
      verified: true,
      status: 'not_scanned',
      last_connected: null,
      last_disconnected: null,
      record_value: null,
      lookup_count: 0,
    });
    expect(protocols.dmarc.verified).toBe(false);
  });
});

describe('GET /domains/{id}/dns/history', () => {
  it('merges DMARC and SPF snapshots of the window chronologically; spf rows carry lookup_count', async () => {
    const res = await svc.call('GET', `/domains/${id}/dns/history`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { record_type: 'spf', record_value: null, occurred_at: '2026-05-20T08:00:00.000Z', lookup_count: 0 },
      { record_type: 'spf', record_value: SPF_V2, occurred_at: '2026-05-25T08:00:00.000Z', lookup_count: 0 },
      { record_type: 'dmarc', record_value: DMARC_V2, occurred_at: '2026-06-05T08:00:00.000Z' },
      { record_type: 'spf', record_value: null, occurred_at: '2026-06-05T08:00:00.000Z', lookup_count: 0 },
      { record_type: 'spf', record_value: SPF_V3, occurred_at: '2026-06-10T08:00:00.000Z', lookup_count: 1 },
    ]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 5, has_more: false });
  });

  it('filters by record_type and takes an explicit inclusive window', async () => {
    const dmarc = await get(`/domains/${id}/dns/history`, {
      record_type: 'dmarc',
      start_date: '2026-04-20',
      end_date: '2026-06-05',
    });
    expect(dmarc.data.map((r: { record_value: string }) => r.record_value)).toEqual([GOOD.dmarc, DMARC_V2]);
    const spf = await get(`/domains/${id}/dns/history`, { record_type: 'spf', start_date: '2026-04-20' });
    expect(spf.data.map((r: { record_value: string | null }) => r.record_value)).toEqual([
      GOOD.spf,
      null,
      SPF_V2,
      null,
      SPF_V3,
    ]);
    expect(spf.data.every((r: { record_type: string }) => r.record_type === 'spf')).toBe(true);
  });

  it('pages with page and limit', async () => {
    const second = await get(`/domains/${id}/dns/history`, { limit: 2, page: 2 });
    expect(second.pagination).toEqual({ page: 2, limit: 2, total: 5, has_more: true });
    expect(second.data.map((r: { record_type: string }) => r.record_type)).toEqual(['dmarc', 'spf']);
    const third = await get(`/domains/${id}/dns/history`, { limit: 2, page: 3 });
    expect(third.pagination.has_more).toBe(false);
    expect(third.data).toHaveLength(1);
  });
});

describe('GET /domains/{id}/dns/changes', () => {
  it('lists the window’s events newest first with a total', async () => {
    const res = await svc.call('GET', `/domains/${id}/dns/changes`, { token });
    expect(res.status).toBe(200);
    expect(brief(res.body.data)).toEqual([
      '06-10 spf connected',
      '06-05 spf disconnected',
      '06-01 bimi disconnected',
      '05-25 spf connected',
      '05-20 spf disconnected',
    ]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 5, has_more: false });
  });

  it('filters by record_type, action and window, counting only what matches', async () => {
    const spfConnected = await get(`/domains/${id}/dns/changes`, { record_type: 'spf', action: 'connected' });
    expect(brief(spfConnected.data)).toEqual(['06-10 spf connected', '05-25 spf connected']);
    expect(spfConnected.pagination.total).toBe(2);
    const bimi = await get(`/domains/${id}/dns/changes`, { record_type: 'bimi', start_date: '2026-01-01' });
    expect(brief(bimi.data)).toEqual(['06-01 bimi disconnected', '04-20 bimi connected']);
    const connectedAllTime = await get(`/domains/${id}/dns/changes`, {
      action: 'connected',
      start_date: '2026-04-20',
      end_date: NOW.slice(0, 10),
    });
    expect(connectedAllTime.pagination.total).toBe(7);
    const oneDay = await get(`/domains/${id}/dns/changes`, {
      start_date: '2026-06-05',
      end_date: '2026-06-05',
    });
    expect(brief(oneDay.data)).toEqual(['06-05 spf disconnected']);
  });

  it('pages with page and limit', async () => {
    const page2 = await get(`/domains/${flappy}/dns/changes`, { limit: 5, page: 2 });
    expect(page2.pagination).toEqual({ page: 2, limit: 5, total: 16, has_more: true });
    expect(page2.data).toHaveLength(5);
    const page4 = await get(`/domains/${flappy}/dns/changes`, { limit: 5, page: 4 });
    expect(page4.pagination.has_more).toBe(false);
    // The oldest events: the five connections of the first scan.
    expect(page4.data).toHaveLength(1);
    expect(page4.data[0].occurred_at).toBe('2026-06-02T06:00:00.000Z');
  });
});

describe('GET /domains/{id}/dns/snapshots', () => {
  it('returns separate dmarc and spf arrays of the window, newest first', async () => {
    const data = (await get(`/domains/${id}/dns/snapshots`)).data;
    expect(data.domain_id).toBe(id);
    expect(data.dmarc).toEqual([
      { id: expect.any(Number), record_value: DMARC_V2, occurred_at: '2026-06-05T08:00:00.000Z' },
    ]);
    expect(
      data.spf.map((s: { record_value: string | null; lookup_count: number }) => [
        s.record_value,
        s.lookup_count,
      ]),
    ).toEqual([
      [SPF_V3, 1],
      [null, 0],
      [SPF_V2, 0],
      [null, 0],
    ]);
    expect(data.spf.every((s: { id: number }) => Number.isInteger(s.id))).toBe(true);
  });

  it('leaves the other array empty when record_type is given', async () => {
    const spfOnly = (await get(`/domains/${id}/dns/snapshots`, { record_type: 'spf' })).data;
    expect(spfOnly.dmarc).toEqual([]);
    expect(spfOnly.spf).toHaveLength(4);
    const dmarcOnly = (
      await get(`/domains/${id}/dns/snapshots`, { record_type: 'dmarc', start_date: '2026-04-01' })
    ).data;
    expect(dmarcOnly.spf).toEqual([]);
    expect(dmarcOnly.dmarc.map((s: { record_value: string }) => s.record_value)).toEqual([
      DMARC_V2,
      GOOD.dmarc,
    ]);
  });

  it('returns at most 10 per type by default and `limit` when given', async () => {
    const byDefault = (await get(`/domains/${flappy}/dns/snapshots`)).data;
    expect(byDefault.spf).toHaveLength(10);
    expect(byDefault.spf[0].occurred_at).toBe('2026-06-13T06:00:00.000Z');
    expect(byDefault.dmarc).toHaveLength(1);
    expect((await get(`/domains/${flappy}/dns/snapshots`, { limit: 100 })).data.spf).toHaveLength(12);
    expect((await get(`/domains/${flappy}/dns/snapshots`, { limit: 2 })).data.spf).toHaveLength(2);
  });
});

describe('errors', () => {
  const paths = (domainId: number) => [
    `/domains/${domainId}/dns/timeline`,
    `/domains/${domainId}/dns/current`,
    `/domains/${domainId}/dns/history`,
    `/domains/${domainId}/dns/changes`,
    `/domains/${domainId}/dns/snapshots`,
  ];

  it('answers 404 for another team’s domain on every endpoint', async () => {
    const other = await addTeam(svc, 'Timeline Other Team');
    const theirs = addDomain(svc, 'theirs-timeline.example', other);
    await publishAll(svc, 'theirs-timeline.example');
    await scan(svc, theirs, NOW);
    for (const path of paths(theirs)) {
      const res = await svc.call('GET', path, { token });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('answers 403 insufficient_scope without domains:read', async () => {
    const narrow = (await svc.createToken(['account:read'])).token;
    for (const path of paths(id)) {
      const res = await svc.call('GET', path, { token: narrow });
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('insufficient_scope');
    }
  });

  it('answers 422 for unknown filter values, a reversed window and limits out of range', async () => {
    const cases: [string, Record<string, string | number>][] = [
      [`/domains/${id}/dns/timeline`, { record_type: 'mx' }],
      [`/domains/${id}/dns/timeline`, { action: 'removed' }],
      [`/domains/${id}/dns/timeline`, { limit: 101 }],
      [`/domains/${id}/dns/changes`, { record_type: 'DMARC' }],
      [`/domains/${id}/dns/changes`, { action: 'connect' }],
      [`/domains/${id}/dns/changes`, { start_date: '2026-06-10', end_date: '2026-06-01' }],
      [`/domains/${id}/dns/changes`, { page: 0 }],
      [`/domains/${id}/dns/history`, { record_type: 'bimi' }],
      [`/domains/${id}/dns/history`, { end_date: '15/06/2026' }],
      [`/domains/${id}/dns/snapshots`, { record_type: 'mta_sts' }],
      [`/domains/${id}/dns/snapshots`, { limit: 0 }],
    ];
    for (const [path, query] of cases) {
      const res = await svc.call('GET', path, { token, query });
      expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
    }
  });
});
