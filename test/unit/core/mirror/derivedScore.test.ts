import { describe, expect, it } from 'vitest';
import { DOMAIN_ID, health, mirrorWithDomain, score, write } from './payloads.ts';

/** The engine no longer polls the score hourly: it follows from the protocols passing (issue 21). */
describe('the score derived from the health the engine polls', () => {
  it('tells a score drop with the health poll that shows the protocol lost, and keeps the score current', () => {
    const { mirror, accountId } = mirrorWithDomain();
    expect(
      write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z').alerts,
    ).toEqual([]);
    const lost = write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T10:00:00Z', { spf: false }),
      '2025-03-01T10:01:00Z',
    );
    expect(lost.alerts.map((a) => a.rule).sort()).toEqual(
      ['health_regressed', 'protocol_disconnected', 'score_dropped'].sort(),
    );
    expect(lost.alerts.find((a) => a.rule === 'score_dropped')!.title).toBe(
      'Security score of example.com dropped from 10.0 to 8.0',
    );
    const row = mirror.overview(accountId).find((r) => r.domainId === DOMAIN_ID)!;
    expect(row.score).toMatchObject({ score: 8, computedAt: '2025-03-01T10:00:00.000Z' });
    // The score history shows the derived points as derived, not as the service's measurements.
    const points = mirror.history('score', { accountId, domainId: DOMAIN_ID });
    expect(points.map((p) => [p.score, p.kind])).toEqual(
      expect.arrayContaining([
        [10, 'derived'],
        [8, 'derived'],
      ]),
    );
    expect(points.some((p) => p.kind === 'measured')).toBe(false);

    // Restored: the episode resolves with the health poll.
    const back = write(mirror, accountId, 'health', health('2025-03-01T11:00:00Z'), '2025-03-01T11:01:00Z');
    expect(back.resolved.map((a) => a.rule)).toContain('score_dropped');
  });

  it('the score endpoint confirms: the same score for the same scan is no news, a lower one is told', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    const same = write(
      mirror,
      accountId,
      'security_score',
      score(10, '2025-03-01T09:00:00Z'),
      '2025-03-01T09:02:00Z',
    );
    expect(same.alerts).toEqual([]);
    const points = mirror.history('score', { accountId, domainId: DOMAIN_ID });
    expect(points.filter((p) => p.kind === 'measured').map((p) => p.score)).toEqual([10]);

    // The service weighs the scan lower than the interface's rule would: its answer wins and is told.
    write(mirror, accountId, 'health', health('2025-03-01T10:00:00Z'), '2025-03-01T10:01:00Z');
    const lower = write(
      mirror,
      accountId,
      'security_score',
      score(8.5, '2025-03-01T10:00:00Z'),
      '2025-03-01T10:02:00Z',
    );
    expect(lower.alerts.map((a) => a.title)).toEqual([
      'Security score of example.com dropped from 10.0 to 8.5',
    ]);
    expect(mirror.overview(accountId).find((r) => r.domainId === DOMAIN_ID)!.score).toMatchObject({
      score: 8.5,
    });
  });

  it('a service that weighs scans otherwise than the interface’s rule makes no news of the difference', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    const first = write(
      mirror,
      accountId,
      'security_score',
      score(8.4, '2025-03-01T09:00:00Z'),
      '2025-03-01T09:02:00Z',
    );
    expect(first.alerts).toEqual([]);
    expect(mirror.overview(accountId).find((r) => r.domainId === DOMAIN_ID)!.score).toMatchObject({
      score: 8.4,
    });
  });

  it('a backfilled health history is history, not news: no score alert from old scans', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    const old = write(
      mirror,
      accountId,
      'health_history',
      [
        {
          ...health('2025-02-20T09:00:00Z', { spf: false, dmarc: false }),
          scanned_at: '2025-02-20T09:00:00Z',
          id: 1,
        },
      ],
      '2025-03-01T09:02:00Z',
    );
    expect(old.alerts.filter((a) => a.rule === 'score_dropped')).toEqual([]);
  });
});
