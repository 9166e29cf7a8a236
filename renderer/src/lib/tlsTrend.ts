/** A TLS report as the interface lists it (only what the daily trend reads). */
export interface TlsReportSummary {
  date_range_start: string;
  total_successful_session_count: number;
  total_failure_session_count: number;
}

/** One UTC day of TLS sessions. */
export interface TlsDay {
  date: string;
  successful: number;
  failed: number;
}

const DAY = 86_400_000;

/**
 * Successful and failed TLS sessions per UTC day of the window (each report counted on the day its range
 * starts), every day of the window present so a quiet day reads as zero, not as a gap.
 */
export function dailySessions(
  reports: readonly TlsReportSummary[],
  window: { start: string; end: string },
): TlsDay[] {
  const byDay = new Map<string, TlsDay>();
  const start = Date.parse(`${window.start}T00:00:00Z`);
  const end = Date.parse(`${window.end}T00:00:00Z`);
  for (let t = start; Number.isFinite(t) && t <= end && byDay.size < 400; t += DAY) {
    const date = new Date(t).toISOString().slice(0, 10);
    byDay.set(date, { date, successful: 0, failed: 0 });
  }
  for (const r of reports) {
    const date = r.date_range_start.slice(0, 10);
    const day = byDay.get(date);
    if (!day) continue;
    day.successful += r.total_successful_session_count;
    day.failed += r.total_failure_session_count;
  }
  return [...byDay.values()];
}

/** A sending MTA of the interface's by-source view. */
export interface TlsSource {
  sending_mta_ip: string;
  successful_session_count: number | null;
  failed_session_count: number;
  result_types: string[];
  report_count: number;
}

/** The by-source view with the failing MTAs first (most failed sessions first), then the others. */
export function failingFirst(sources: readonly TlsSource[]): TlsSource[] {
  return [...sources].sort(
    (a, b) =>
      Number(b.failed_session_count > 0) - Number(a.failed_session_count > 0) ||
      b.failed_session_count - a.failed_session_count ||
      a.sending_mta_ip.localeCompare(b.sending_mta_ip),
  );
}
