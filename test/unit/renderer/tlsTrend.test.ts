import { describe, expect, it } from 'vitest';
import { dailySessions, failingFirst } from '../../../renderer/src/lib/tlsTrend.ts';

const report = (day: string, ok: number, failed: number) => ({
  date_range_start: `${day}T00:00:00Z`,
  total_successful_session_count: ok,
  total_failure_session_count: failed,
});

describe('TLS-RPT daily trend', () => {
  it('sums each day’s reports and keeps quiet days as zero', () => {
    const days = dailySessions(
      [
        report('2026-11-20', 100, 2),
        report('2026-11-20', 50, 0),
        report('2026-11-22', 10, 5),
        report('2026-10-01', 9, 9),
      ],
      { start: '2026-11-20', end: '2026-11-23' },
    );
    expect(days).toEqual([
      { date: '2026-11-20', successful: 150, failed: 2 },
      { date: '2026-11-21', successful: 0, failed: 0 },
      { date: '2026-11-22', successful: 10, failed: 5 },
      { date: '2026-11-23', successful: 0, failed: 0 },
    ]);
  });

  it('lists failing sending MTAs first, most failures first', () => {
    const mta = (ip: string, failed: number) => ({
      sending_mta_ip: ip,
      successful_session_count: 10,
      failed_session_count: failed,
      result_types: [],
      report_count: 1,
    });
    expect(
      failingFirst([mta('192.0.2.1', 0), mta('192.0.2.2', 3), mta('192.0.2.3', 9)]).map(
        (m) => m.sending_mta_ip,
      ),
    ).toEqual(['192.0.2.3', '192.0.2.2', '192.0.2.1']);
  });
});
