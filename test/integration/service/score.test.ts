// GET /domains/{id}/security-score and /security-score/history over real HTTP: score = passing / 5 × 10,
// interpretations, 503 score_unavailable, the derived_score rule on history rows, limit and window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService, type ServiceHarness } from '../../support/serviceHarness.ts';
import { addDomain, addTeam, publish, publishAll, scan, type RecordKind } from './scanSupport.ts';

// Records of the history suite (DMARC without enforcement, so 3 passing protocols are Partially protected).
const GOOD_BY_KIND: Record<RecordKind, string> = {
  dmarc: 'v=DMARC1; p=none',
  spf: 'v=spf1 ip4:192.0.2.0/24 -all',
  mta_sts: 'v=STSv1; id=20260601000000',
  tls_rpt: 'v=TLSRPTv1; rua=mailto:tlsrpt@reports.example',
  bimi: 'v=BIMI1; l=https://brand.example/logo.svg',
  mx: '10 aspmx.l.google.com',
};

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

describe('GET /domains/{id}/security-score', () => {
  // Protocols removed one by one: 5 → 0 passing.
  const removalOrder: RecordKind[] = ['bimi', 'tls_rpt', 'mta_sts', 'spf', 'dmarc'];
  const expected = [
    { score: 10, interpretation: 'excellent' },
    { score: 8, interpretation: 'good' },
    { score: 6, interpretation: 'fair' },
    { score: 4, interpretation: 'poor' },
    { score: 2, interpretation: 'critical' },
    { score: 0, interpretation: 'critical' },
  ];

  it('scores passing / 5 × 10 of the newest scan and interprets it', async () => {
    const id = addDomain(svc, 'score-steps.example');
    await publishAll(svc, 'score-steps.example');
    for (const [step, want] of expected.entries()) {
      if (step > 0) await publish(svc, 'score-steps.example', removalOrder[step - 1]!, null);
      const at = `2026-06-15T0${step}:00:00.000Z`;
      await scan(svc, id, at);
      const res = await get(`/domains/${id}/security-score`);
      expect(res.status).toBe(200);
      expect(res.body.data, `step ${step}`).toEqual({
        domain_id: id,
        fqdn: 'score-steps.example',
        score: want.score,
        max_score: 10,
        interpretation: want.interpretation,
        message: expect.stringContaining(`${5 - step} of 5 protocols pass`),
        computed_at: at,
      });
    }
  });

  it('names the protocols that do not pass in the message', async () => {
    const id = addDomain(svc, 'score-message.example');
    await publishAll(svc, 'score-message.example', { spf: null, bimi: null });
    await scan(svc, id, '2026-06-15T10:00:00.000Z');
    const { message } = (await get(`/domains/${id}/security-score`)).body.data;
    expect(message).toContain('SPF');
    expect(message).toContain('BIMI');
    expect(message).not.toContain('DMARC');
  });

  it('answers 503 score_unavailable for a domain never scanned nor verified', async () => {
    const id = addDomain(svc, 'score-unknown.example');
    await publishAll(svc, 'score-unknown.example');
    const res = await get(`/domains/${id}/security-score`);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('score_unavailable');
    expect(typeof res.body.error.request_id).toBe('string');
  });

  it('scores from the verification flags before the first scan', async () => {
    const id = addDomain(svc, 'score-live.example');
    svc.db
      .prepare(
        'UPDATE domains SET dmarc_verified = 1, spf_verified = 1, mta_sts_verified = 1, verified_at = ? WHERE id = ?',
      )
      .run('2026-06-14T09:00:00.000Z', id);
    const res = await get(`/domains/${id}/security-score`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      score: 6,
      interpretation: 'fair',
      computed_at: '2026-06-14T09:00:00.000Z',
    });
  });

  it('answers 404 for another team’s domain', async () => {
    const other = await addTeam(svc, 'Score Other Team');
    const theirs = addDomain(svc, 'theirs-score.example', other);
    await scan(svc, theirs, '2026-06-15T10:00:00.000Z');
    for (const path of [`/domains/${theirs}/security-score`, `/domains/${theirs}/security-score/history`]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});

describe('GET /domains/{id}/security-score/history', () => {
  let id: number;
  // 12 scans, one per day from 2026-06-04 to 2026-06-15 at 06:00, with a varying number of protocols.
  const kinds: RecordKind[] = ['dmarc', 'spf', 'mta_sts', 'tls_rpt', 'bimi'];
  const passingOnDay = [5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 3];

  beforeAll(async () => {
    id = addDomain(svc, 'score-history.example');
    await publishAll(svc, 'score-history.example');
    for (const [i, passing] of passingOnDay.entries()) {
      for (const [k, kind] of kinds.entries()) {
        await publish(svc, 'score-history.example', kind, k < passing ? GOOD_BY_KIND[kind] : null);
      }
      const day = String(4 + i).padStart(2, '0');
      await scan(svc, id, `2026-06-${day}T06:00:00.000Z`);
    }
    svc.clock.set('2026-06-15T12:00:00.000Z');
  });

  it('returns the newest 10 scans by default, each with derived_score = protocols_passing / 5 × 10', async () => {
    const res = await get(`/domains/${id}/security-score/history`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ domain_id: id, fqdn: 'score-history.example', max_score: 10 });
    expect(data.note).toContain('protocols_passing / 5');
    expect(data.history).toHaveLength(10);
    expect(data.history.map((h: { scanned_at: string }) => h.scanned_at.slice(0, 10))).toEqual(
      Array.from({ length: 10 }, (_, i) => `2026-06-${String(15 - i).padStart(2, '0')}`),
    );
    expect(data.history.map((h: { protocols_passing: number }) => h.protocols_passing)).toEqual(
      passingOnDay.slice(2).reverse(),
    );
    for (const row of data.history) {
      expect(row.derived_score).toBe((row.protocols_passing / 5) * 10);
      expect(row.total_protocols).toBe(5);
    }
    expect(data.history[0]).toEqual({
      derived_score: 6,
      protocols_passing: 3,
      total_protocols: 5,
      result: 'Partially protected',
      scanned_at: '2026-06-15T06:00:00.000Z',
    });
  });

  it('honours limit and the date window (both ends inclusive)', async () => {
    const limited = await get(`/domains/${id}/security-score/history`, { limit: 3 });
    expect(limited.body.data.history).toHaveLength(3);
    const window = await get(`/domains/${id}/security-score/history`, {
      start_date: '2026-06-05',
      end_date: '2026-06-07',
      limit: 100,
    });
    expect(window.body.data.history.map((h: { scanned_at: string }) => h.scanned_at.slice(0, 10))).toEqual([
      '2026-06-07',
      '2026-06-06',
      '2026-06-05',
    ]);
    const empty = await get(`/domains/${id}/security-score/history`, {
      start_date: '2026-01-01',
      end_date: '2026-01-31',
    });
    expect(empty.body.data.history).toEqual([]);
  });

  it('answers 422 for limit 0 or 101 and for a reversed window', async () => {
    for (const query of [
      { limit: 0 },
      { limit: 101 },
      { start_date: '2026-06-15', end_date: '2026-06-01' },
    ] as Record<string, string | number>[]) {
      const res = await get(`/domains/${id}/security-score/history`, query);
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
    }
  });
});
