// The enforcement ladder of the DMARC recommendation, including the partial-rollout (pct < 100) step the
// integration tests do not reach.
import { describe, expect, it } from 'vitest';
import {
  recommendEnforcement,
  type AlignmentWindow,
} from '../../../../service/hosted/dmarcRecommendation.ts';

function window(days: number, messages: number, pass: number, failingSources = 0): AlignmentWindow {
  return {
    days: Array.from({ length: days }, (_, i) => ({
      date: `2026-05-${String(i + 1).padStart(2, '0')}`,
      messages,
      dmarcPass: pass,
    })),
    failingSources,
  };
}

describe('recommendEnforcement', () => {
  it('finishes a partial quarantine rollout (pct=25) before proposing reject', () => {
    const r = recommendEnforcement('quarantine', 25, window(30, 100, 99), 30);
    expect(r).toMatchObject({
      current_policy: 'quarantine',
      recommended_policy: 'quarantine',
      recommended_pct: 100,
      ready: true,
    });
    expect(r.reasons[0]).toMatch(/apply p=quarantine to all mail \(pct=100\)/);
  });

  it('keeps a partial rollout when alignment is not good enough yet', () => {
    const r = recommendEnforcement('quarantine', 25, window(30, 100, 80, 3), 30);
    expect(r).toMatchObject({ recommended_policy: 'quarantine', recommended_pct: 25, ready: false });
    expect(r.reasons[0]).toMatch(/fix the 3 failing sources first/);
  });

  it('days without messages do not count as monitored days', () => {
    const w = window(20, 100, 100);
    w.days.push(
      ...Array.from({ length: 10 }, (_, i) => ({ date: `2026-04-${i + 10}`, messages: 0, dmarcPass: 0 })),
    );
    expect(recommendEnforcement('none', 100, w, 30).stats.monitoring_days).toBe(20);
  });

  it('rounds the pass rate to one decimal and needs exactly the threshold', () => {
    const at = recommendEnforcement('none', 100, window(14, 1000, 950), 30);
    expect(at).toMatchObject({ recommended_policy: 'quarantine', stats: { dmarc_pass_rate: 95 } });
    const below = recommendEnforcement('none', 100, window(14, 1000, 949), 30);
    expect(below).toMatchObject({ recommended_policy: 'none', stats: { dmarc_pass_rate: 94.9 } });
  });
});
