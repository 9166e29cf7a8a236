import { describe, expect, it } from 'vitest';
import { resultRank } from '../../../../main/core/alerts/rules/healthRegressed.ts';
import {
  DOMAIN_ID,
  failedSources,
  health,
  mirrorWithDomain,
  score,
  source,
  write,
} from '../mirror/payloads.ts';

describe('threat_source_appeared', () => {
  it('announces each registered threat once per domain, whatever the window, even on the first fetch', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const first = write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(
        source('bulk-mailer.example', false, 400),
        source('203.0.113.66 (spam botnet)', true, 87),
      ),
      '2025-03-01T09:00:00Z',
    );
    expect(first.alerts).toHaveLength(1);
    expect(first.alerts[0]).toMatchObject({
      rule: 'threat_source_appeared',
      severity: 'critical',
      title: 'Registered threat sending as example.com: 203.0.113.66 (spam botnet)',
    });
    expect(first.alerts[0]!.body).toContain('87 messages');

    // Same threat, next poll and another window: no new alert.
    expect(
      write(
        mirror,
        accountId,
        'failed_sources',
        failedSources(source('203.0.113.66 (spam botnet)', true, 90)),
        '2025-03-01T10:00:00Z',
      ).alerts,
    ).toEqual([]);
    const weekly = mirror.writeSignal({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'failed_sources',
      fetchedAt: '2025-03-01T10:05:00Z',
      window: { start: '2025-02-22', end: '2025-03-01' },
      payload: failedSources(
        source('203.0.113.66 (spam botnet)', true, 20),
        source('phish.example', true, 5),
      ),
    });
    expect(weekly.alerts.map((a) => a.details.sourceName)).toEqual(['phish.example']);
  });

  it('resolves when the source stops appearing, and never announces it again', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(source('phish.example', true)),
      '2025-03-01T09:00:00Z',
    );
    const gone = write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(source('bulk-mailer.example', false)),
      '2025-03-02T09:00:00Z',
    );
    expect(gone.resolved.map((a) => a.details.sourceName)).toEqual(['phish.example']);
    const back = write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(source('phish.example', true)),
      '2025-03-03T09:00:00Z',
    );
    expect(back.alerts).toEqual([]);
    expect(mirror.listAlerts({ rule: 'threat_source_appeared' })).toHaveLength(1);
  });

  it('a source listed twice in one answer is one alert; a non-threat never alerts', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const r = write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(
        source('phish.example', true, 10),
        source('phish.example', true, 5),
        source('misconfigured-crm.example', false, 999),
      ),
      '2025-03-01T09:00:00Z',
    );
    expect(r.alerts.map((a) => a.details.sourceName)).toEqual(['phish.example']);
  });
});

describe('score_dropped', () => {
  function scores(
    values: number[],
    patch?: Parameters<ReturnType<typeof mirrorWithDomain>['mirror']['setAlertSettings']>[0],
  ) {
    const { mirror, accountId } = mirrorWithDomain();
    if (patch) mirror.setAlertSettings(patch);
    return {
      mirror,
      results: values.map((v, i) => {
        const t = `2025-03-01T${String(10 + i).padStart(2, '0')}:00:00Z`;
        return write(mirror, accountId, 'security_score', score(v, t), t);
      }),
    };
  }

  it('a fall of at least the default step (1.0) raises; a smaller fall does not; the first reading is a baseline', () => {
    const small = scores([9.0, 8.2]);
    expect(small.results.flatMap((r) => r.alerts)).toEqual([]);
    const { results } = scores([9.2, 8.2]);
    expect(results[0]!.alerts).toEqual([]);
    expect(results[1]!.alerts).toHaveLength(1);
    expect(results[1]!.alerts[0]).toMatchObject({
      rule: 'score_dropped',
      severity: 'warning',
      title: 'Security score of example.com dropped from 9.2 to 8.2',
    });
  });

  it('a fall of exactly the step counts although floating point makes it a hair less (8.2 → 7.2)', () => {
    // 8.2 - 7.2 is 0.9999999999999991 in binary floating point: a zero tolerance would miss this drop.
    const { results } = scores([8.2, 7.2]);
    expect(results[1]!.alerts).toHaveLength(1);
    expect(results[1]!.alerts[0]!.title).toBe('Security score of example.com dropped from 8.2 to 7.2');
  });

  it('a recovery to the score before the drop resolves even when it arrives a hair under it', () => {
    // 5.6 + 1.1 is 6.699999999999999: a service summing parts sends the 6.7 it shows that way.
    const { mirror, results } = scores([6.7, 5.5, 5.6 + 1.1]);
    const [episode] = mirror.listAlerts({ rule: 'score_dropped' });
    expect(results[2]!.resolved.map((a) => a.id)).toEqual([episode!.id]);
    expect(mirror.listAlerts({ rule: 'score_dropped', open: true })).toEqual([]);
  });

  it('the step is configurable', () => {
    expect(scores([9, 8], { scoreStep: 2 }).results.flatMap((r) => r.alerts)).toEqual([]);
    expect(scores([9, 7], { scoreStep: 2 }).results.flatMap((r) => r.alerts)).toHaveLength(1);
  });

  it('crossing below the floor raises even for a small fall, as critical', () => {
    const { results } = scores([6.2, 5.8], { scoreFloor: 6 });
    expect(results[1]!.alerts[0]).toMatchObject({ severity: 'critical' });
    expect(results[1]!.alerts[0]!.body).toContain('below your floor of 6.0');
    // Already below the floor: small wobbles are not news.
    expect(scores([5.8, 5.6], { scoreFloor: 6 }).results.flatMap((r) => r.alerts)).toEqual([]);
    // No floor: only the step counts.
    expect(scores([6.2, 5.8], { scoreFloor: null }).results.flatMap((r) => r.alerts)).toEqual([]);
  });

  it('a further fall refreshes the open episode without a second notification; recovery resolves it', () => {
    const { mirror, results } = scores([9, 7.5, 6, 6, 9]);
    expect(results.map((r) => r.alerts.length)).toEqual([0, 1, 0, 0, 0]);
    const [episode] = mirror.listAlerts({ rule: 'score_dropped' });
    expect(episode!.title).toBe('Security score of example.com dropped from 9.0 to 6.0');
    expect(results[4]!.resolved.map((a) => a.id)).toEqual([episode!.id]);
  });

  it('a domain already under the floor: back to where it was resolves, and its next drop is told again', () => {
    // SPF and DMARC alone pass 2 of 5: 4.0, under the default floor of 5.0; losing one gives 2.0.
    const { mirror, results } = scores([4, 2, 4, 2]);
    expect(results.map((r) => r.alerts.length)).toEqual([0, 1, 0, 1]);
    const [second, first] = mirror.listAlerts({ rule: 'score_dropped' });
    expect(results[2]!.resolved.map((a) => a.id)).toEqual([first!.id]);
    expect(second!.id).not.toBe(first!.id);
    expect(mirror.listAlerts({ rule: 'score_dropped', open: true }).map((a) => a.id)).toEqual([second!.id]);
  });

  it('a drop across the floor stays open while under it and resolves once back where it was', () => {
    const { mirror, results } = scores([6, 4.5, 4.8, 6], { scoreFloor: 5 });
    expect(results.map((r) => r.resolved.length)).toEqual([0, 0, 0, 1]);
    expect(mirror.listAlerts({ rule: 'score_dropped', open: true })).toEqual([]);
  });

  it('a partial recovery keeps the episode open', () => {
    const { mirror, results } = scores([9, 7, 8]);
    expect(results[2]!.resolved).toEqual([]);
    expect(mirror.listAlerts({ rule: 'score_dropped', open: true })).toHaveLength(1);
  });

  it('the same computed reading fetched twice is not compared with itself', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(mirror, accountId, 'security_score', score(9, '2025-03-01T10:00:00Z'), '2025-03-01T10:00:00Z');
    // A recomputation with the same computed_at replaces the stored reading.
    expect(
      write(mirror, accountId, 'security_score', score(9, '2025-03-01T10:00:00Z'), '2025-03-01T11:00:00Z')
        .alerts,
    ).toEqual([]);
  });
});

describe('health_regressed', () => {
  it('fewer protocols passing raises; the first scan is a baseline; getting back resolves', () => {
    const { mirror, accountId } = mirrorWithDomain();
    expect(
      write(
        mirror,
        accountId,
        'health',
        health('2025-03-01T08:00:00Z', { bimi: false }),
        '2025-03-01T08:01:00Z',
      ).alerts,
    ).toEqual([]);
    const worse = write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T08:15:00Z', { bimi: false, tls_rpt: false }),
      '2025-03-01T08:16:00Z',
    );
    const regression = worse.alerts.find((a) => a.rule === 'health_regressed')!;
    expect(regression).toMatchObject({ severity: 'warning', title: 'Health of example.com got worse' });
    expect(regression.body).toContain('3 of 5 protocols pass, down from 4');
    // No clock time in stored text (the scan's time is a detail, shown in the app's one format).
    expect(regression.body).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    const better = write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T08:30:00Z', { bimi: false }),
      '2025-03-01T08:31:00Z',
    );
    expect(better.resolved.map((a) => a.rule)).toContain('health_regressed');
  });

  it('a worse result label raises even at the same count; unknown labels never trigger', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T08:00:00Z', {}, 'Protected'),
      '2025-03-01T08:01:00Z',
    );
    const r = write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T08:15:00Z', {}, 'At Risk'),
      '2025-03-01T08:16:00Z',
    );
    expect(r.alerts.map((a) => a.rule)).toEqual(['health_regressed']);
    expect(r.alerts[0]!.body).toContain('the result went from Protected to At Risk');

    const other = mirrorWithDomain();
    write(
      other.mirror,
      other.accountId,
      'health',
      health('2025-03-01T08:00:00Z', {}, 'Protected'),
      '2025-03-01T08:01:00Z',
    );
    const unknown = write(
      other.mirror,
      other.accountId,
      'health',
      health('2025-03-01T08:15:00Z', {}, 'Galactic'),
      '2025-03-01T08:16:00Z',
    );
    expect(unknown.alerts).toEqual([]);
  });

  it('orders the labels it knows, case-insensitively, and knows nothing of others', () => {
    expect(resultRank('protected')).toBeGreaterThan(resultRank('Partially Protected')!);
    expect(resultRank('Partially_Protected')).toBeGreaterThan(resultRank('At Risk')!);
    expect(resultRank('AT RISK')).toBeGreaterThan(resultRank('Unprotected')!);
    // The reference service's labels, as it spells them, worst first.
    const service = ['Unprotected', 'At risk', 'Partially protected', 'Protected'].map(resultRank);
    expect(service).toEqual([0, 1, 2, 3]);
    expect(resultRank('Galactic')).toBeNull();
    expect(resultRank(null)).toBeNull();
  });
});
