/**
 * The DMARC impact preview computed on the real aggregate-report fixtures (shared/fixtures/dmarc-aggregate):
 * the reports are parsed with the service's own parser and grouped by source address into the interface's
 * SendingSource rows, as the service's sending-services / failed-sources answers hold them.
 */
import { describe, expect, it } from 'vitest';
import {
  dmarcImpact,
  mergeSources,
  proposedEnforcement,
  type ImpactSource,
} from '../../../renderer/src/lib/impact.ts';
import { reportedFail, reportSources as sourcesByIp } from './reportFixtureSources.ts';

describe('DMARC impact preview on the real report fixtures', () => {
  it('has real data to work on (failing and passing mail from several sources)', () => {
    const sources = sourcesByIp();
    expect(sources.length).toBeGreaterThan(3);
    expect(reportedFail).toBeGreaterThan(0);
    expect(
      sources.some((s) => s.dmarc.pass > 0 && s.dmarc.fail > 0) || sources.some((s) => s.dmarc.pass > 0),
    ).toBe(true);
  });

  it('p=none → reject holds back every message failing DMARC, the reports’ own failing count', () => {
    const impact = dmarcImpact({ p: 'none', pct: 100 }, { p: 'reject', pct: 100 }, sourcesByIp());
    expect(impact.raised).toBe(true);
    expect(impact.disposition).toBe('reject');
    expect(impact.affectedMessages).toBe(reportedFail);
    expect(impact.sources.every((s) => s.failing > 0)).toBe(true);
    // Largest first, and the parts add up.
    const affected = impact.sources.map((s) => s.affected);
    expect(affected).toEqual([...affected].sort((a, b) => b - a));
    expect(impact.threatMessages + impact.legitimateMessages + impact.unknownMessages).toBe(reportedFail);
  });

  it('names registered threats and sources that mostly pass (legitimate senders that would lose mail)', () => {
    const sources = sourcesByIp();
    const worst = [...sources].sort((a, b) => b.dmarc.fail - a.dmarc.fail)[0]!;
    const impact = dmarcImpact(
      { p: 'none', pct: 100 },
      { p: 'quarantine', pct: 100 },
      sourcesByIp(new Set([worst.source_name])),
    );
    const row = impact.sources.find((s) => s.name === worst.source_name)!;
    expect(row.verdict).toBe('threat');
    expect(impact.threatMessages).toBe(worst.dmarc.fail);
    for (const s of impact.sources.filter((r) => r.verdict === 'legitimate')) {
      const source = sources.find((x) => x.source_name === s.name)!;
      expect(source.dmarc.pass / source.total_count).toBeGreaterThanOrEqual(0.5);
    }
  });

  it('pct applies to a sample; lowering or keeping enforcement raises nothing', () => {
    const sources = sourcesByIp();
    const half = dmarcImpact({ p: 'none', pct: 100 }, { p: 'quarantine', pct: 50 }, sources);
    expect(Math.abs(half.affectedMessages - reportedFail / 2)).toBeLessThanOrEqual(sources.length);
    expect(half.caveats.join(' ')).toContain('pct=50');
    expect(dmarcImpact({ p: 'reject', pct: 100 }, { p: 'quarantine', pct: 100 }, sources).raised).toBe(false);
    expect(dmarcImpact({ p: 'quarantine', pct: 100 }, { p: 'quarantine', pct: 100 }, sources).raised).toBe(
      false,
    );
    expect(dmarcImpact({ p: 'quarantine', pct: 20 }, { p: 'quarantine', pct: 100 }, sources).raised).toBe(
      true,
    );
  });

  it('reads the change of either operation and the mail_volume window', () => {
    const now = { p: 'none' as const, pct: 100 };
    expect(proposedEnforcement(now, { policy: 'reject' })).toEqual({ p: 'reject', pct: 100 });
    expect(proposedEnforcement(now, { p: 'quarantine', pct: 25 })).toEqual({ p: 'quarantine', pct: 25 });
    const impact = dmarcImpact(now, { p: 'reject', pct: 100 }, sourcesByIp(), [
      { date: '2026-11-01', total: 100, dmarcFail: 10, quarantined: 2, rejected: 1 },
      { date: '2026-11-02', total: null, dmarcFail: null, quarantined: null, rejected: null },
    ]);
    expect(impact.window).toEqual({ days: 1, total: 100, failing: 10, alreadyHeld: 3 });
  });

  it('merges the mirror’s two lists by source name', () => {
    const [a, b] = sourcesByIp();
    expect(mergeSources([a!, b!], [a!], null).map((s) => s.source_name)).toEqual([
      a!.source_name,
      b!.source_name,
    ]);
  });
});

describe('DMARC impact preview, known senders', () => {
  it('counts a known sending service that fails DMARC as legitimate mail the change would hold back', () => {
    const hubspot: ImpactSource = {
      source_name: 'HubSpot',
      total_count: 1000,
      dmarc: { pass: 10, fail: 990 },
      compliance: 1,
      status: 'failing',
      is_registered_threat: false,
    };
    const stranger: ImpactSource = {
      ...hubspot,
      source_name: 'host.example.net',
      dmarc: { pass: 0, fail: 1000 },
    };
    const impact = dmarcImpact({ p: 'none', pct: 100 }, { p: 'reject', pct: 100 }, [hubspot, stranger]);
    expect(impact.sources.find((s) => s.name === 'HubSpot')).toMatchObject({
      verdict: 'legitimate',
      affected: 990,
    });
    expect(impact.sources.find((s) => s.name === 'host.example.net')!.verdict).toBe('unknown');
    expect(impact.legitimateMessages).toBe(990);
  });
});
