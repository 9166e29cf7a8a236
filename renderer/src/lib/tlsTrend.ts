import type { PanelData } from '../../../shared/bridge/panelData.ts';

/** A TLS report as the interface lists it (GET tls-rpt/reports, as kept). */
export type TlsReportSummary = PanelData<'tls_rpt_reports'>[number];

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
    const day = byDay.get(r.date_range_start?.slice(0, 10) ?? '');
    if (!day) continue;
    day.successful += r.total_successful_session_count ?? 0;
    day.failed += r.total_failure_session_count ?? 0;
  }
  return [...byDay.values()];
}

/** A sending MTA of the interface's by-source view (GET tls-rpt/by-source, as kept). */
type TlsSourceEntry = NonNullable<PanelData<'tls_rpt_by_source'>['sources']>[number];

/** A sending MTA as the table shows it (a count the answer left out reads as zero, none as a dash). */
interface TlsSource {
  sending_mta_ip: string;
  successful_session_count: number | null;
  failed_session_count: number;
  result_types: string[];
  report_count: number | null;
}

/** The by-source view with the failing MTAs first (most failed sessions first), then the others. */
export function failingFirst(sources: readonly TlsSourceEntry[]): TlsSource[] {
  return sources
    .map((s) => ({
      sending_mta_ip: typeof s.sending_mta_ip === 'string' ? s.sending_mta_ip : '',
      successful_session_count: s.successful_session_count ?? null,
      failed_session_count: s.failed_session_count ?? 0,
      result_types: s.result_types ?? [],
      report_count: s.report_count ?? null,
    }))
    .sort(
      (a, b) =>
        Number(b.failed_session_count > 0) - Number(a.failed_session_count > 0) ||
        b.failed_session_count - a.failed_session_count ||
        a.sending_mta_ip.localeCompare(b.sending_mta_ip),
    );
}
