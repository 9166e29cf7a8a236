/**
 * Mail volume of a domain from its DMARC aggregate reports (GET /domains/{id}/mail-volume).
 * A report's messages all count on the UTC day its date range begins (date_begin): aggregate reports cover
 * one day or so and do not say when within the range each message arrived.
 * delivered = disposition none or pass (DMARCbis "pass"), quarantined / rejected by disposition;
 * dmarc_pass = messages whose DMARC-aligned DKIM or SPF passed, dmarc_fail the rest.
 * The timeline has one entry per day of the window, days without reports at zero.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';

/** The counters of the totals and of each timeline day. */
export interface MailVolumeCounts {
  total: number;
  delivered: number;
  quarantined: number;
  rejected: number;
  dmarc_pass: number;
  dmarc_fail: number;
}

/** Totals and per-day timeline of a window. */
export interface MailVolumeSeries {
  totals: MailVolumeCounts;
  timeline: ({ date: string } & MailVolumeCounts)[];
}

/** Inclusive YYYY-MM-DD window. */
export interface DayWindow {
  start_date: string;
  end_date: string;
}

const DAY_MS = 86_400_000;

function zero(): MailVolumeCounts {
  return { total: 0, delivered: 0, quarantined: 0, rejected: 0, dmarc_pass: 0, dmarc_fail: 0 };
}

/** SQL sums of a record set aliased `x` into the counter columns. */
export const VOLUME_SUMS = `SUM(x.count) AS total,
  SUM(CASE WHEN x.disposition IN ('none', 'pass') THEN x.count ELSE 0 END) AS delivered,
  SUM(CASE WHEN x.disposition = 'quarantine' THEN x.count ELSE 0 END) AS quarantined,
  SUM(CASE WHEN x.disposition = 'reject' THEN x.count ELSE 0 END) AS rejected,
  SUM(CASE WHEN x.policy_dkim = 'pass' OR x.policy_spf = 'pass' THEN x.count ELSE 0 END) AS dmarc_pass`;

/** Every YYYY-MM-DD from start to end inclusive. */
export function daysOf(window: DayWindow): string[] {
  const days: string[] = [];
  const end = Date.parse(`${window.end_date}T00:00:00Z`);
  for (let t = Date.parse(`${window.start_date}T00:00:00Z`); t <= end; t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** Mail volume of `domainId` over `window`. */
export function mailVolume(db: ServiceDb, domainId: number, window: DayWindow): MailVolumeSeries {
  const rows = db
    .prepare<
      { domainId: number; from: string; to: string },
      { date: string } & Omit<MailVolumeCounts, 'dmarc_fail'>
    >(
      `SELECT substr(r.date_begin, 1, 10) AS date, ${VOLUME_SUMS}
         FROM dmarc_report_records x JOIN dmarc_reports r ON r.id = x.report_id
        WHERE r.domain_id = @domainId AND substr(r.date_begin, 1, 10) BETWEEN @from AND @to
        GROUP BY 1`,
    )
    .all({ domainId, from: window.start_date, to: window.end_date });
  const byDay = new Map(rows.map((r) => [r.date, r]));
  const totals = zero();
  const timeline = daysOf(window).map((date) => {
    const row = byDay.get(date);
    const day: MailVolumeCounts = row
      ? {
          total: row.total,
          delivered: row.delivered,
          quarantined: row.quarantined,
          rejected: row.rejected,
          dmarc_pass: row.dmarc_pass,
          dmarc_fail: row.total - row.dmarc_pass,
        }
      : zero();
    for (const key of Object.keys(totals) as (keyof MailVolumeCounts)[]) totals[key] += day[key];
    return { date, ...day };
  });
  return { totals, timeline };
}
