/**
 * The dashboard snapshot of a domain for one window (GET /domains/{id}/dashboard-cache): mail volume,
 * top sending and failing sources, report counts and TLS session totals, computed once and stored
 * (037_dashboard_cache.sql) so a dashboard opens without recomputing. Snapshots are (re)computed when a report
 * of the domain is ingested — every stored window holding the report's day, plus the default 30-day window
 * ending today — and on demand by POST /_sandbox/dashboard-cache. A snapshot is a picture taken at cached_at:
 * a threat registered later shows in sending-services at once and in the snapshot at its next recompute.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { mailVolume, type DayWindow, type MailVolumeCounts } from './mailVolume.ts';
import { sendingSources, type SendingSourceEntry } from './sendingSources.ts';

/** Sources listed per snapshot list (the lists' default limit). */
const SNAPSHOT_SOURCES = 10;

/** The snapshot payload (`data` of the dashboard cache). */
export interface DashboardSnapshotData {
  totals: MailVolumeCounts;
  timeline: ({ date: string } & MailVolumeCounts)[];
  services: SendingSourceEntry[];
  failed_sources: SendingSourceEntry[];
  /** Reports whose date range begins in the window. */
  reports: { dmarc: number; tls: number };
  tls_sessions: { successful: number; failed: number };
}

/** A stored snapshot. */
export interface DashboardSnapshot {
  data: DashboardSnapshotData;
  cached_at: string;
}

/** Computes the snapshot of `domainId` over `window` from the stored reports. */
export function computeDashboard(db: ServiceDb, domainId: number, window: DayWindow): DashboardSnapshotData {
  const args = { domainId, from: window.start_date, to: window.end_date };
  const dmarc = db
    .prepare<typeof args, { n: number }>(
      `SELECT count(*) AS n FROM dmarc_reports
        WHERE domain_id = @domainId AND substr(date_begin, 1, 10) BETWEEN @from AND @to`,
    )
    .get(args)!.n;
  const tls = db
    .prepare<typeof args, { n: number; ok: number; failed: number }>(
      `SELECT count(*) AS n, coalesce(SUM(total_successful_session_count), 0) AS ok,
              coalesce(SUM(total_failure_session_count), 0) AS failed
         FROM tls_reports WHERE domain_id = @domainId AND substr(date_range_start, 1, 10) BETWEEN @from AND @to`,
    )
    .get(args)!;
  const volume = mailVolume(db, domainId, window);
  return {
    totals: volume.totals,
    timeline: volume.timeline,
    services: sendingSources(db, domainId, window, { failingOnly: false, limit: SNAPSHOT_SOURCES }),
    failed_sources: sendingSources(db, domainId, window, { failingOnly: true, limit: SNAPSHOT_SOURCES }),
    reports: { dmarc, tls: tls.n },
    tls_sessions: { successful: tls.ok, failed: tls.failed },
  };
}

/** Computes and stores (replacing) the snapshot of one window; returns it. */
export function storeDashboardSnapshot(
  db: ServiceDb,
  domainId: number,
  window: DayWindow,
  now: Date,
): DashboardSnapshot {
  const snapshot = { data: computeDashboard(db, domainId, window), cached_at: now.toISOString() };
  db.prepare(
    `INSERT INTO dashboard_snapshots (domain_id, start_date, end_date, data, cached_at)
     VALUES (@domainId, @start, @end, @data, @at)
     ON CONFLICT (domain_id, start_date, end_date) DO UPDATE SET data = excluded.data, cached_at = excluded.cached_at`,
  ).run({
    domainId,
    start: window.start_date,
    end: window.end_date,
    data: JSON.stringify(snapshot.data),
    at: snapshot.cached_at,
  });
  return snapshot;
}

/** The stored snapshot of exactly this window, or null. */
export function readDashboardSnapshot(
  db: ServiceDb,
  domainId: number,
  window: DayWindow,
): DashboardSnapshot | null {
  const row = db
    .prepare<[number, string, string], { data: string; cached_at: string }>(
      'SELECT data, cached_at FROM dashboard_snapshots WHERE domain_id = ? AND start_date = ? AND end_date = ?',
    )
    .get(domainId, window.start_date, window.end_date);
  return row ? { data: JSON.parse(row.data) as DashboardSnapshotData, cached_at: row.cached_at } : null;
}

/**
 * After a report of `day` (YYYY-MM-DD) was stored: recomputes the domain's stored snapshots whose window holds
 * that day, and the default window.
 */
export function refreshDashboardSnapshots(
  db: ServiceDb,
  domainId: number,
  day: string,
  defaultWindow: DayWindow,
  now: Date,
): void {
  const windows = db
    .prepare<[number, string, string], DayWindow>(
      `SELECT start_date, end_date FROM dashboard_snapshots
        WHERE domain_id = ? AND start_date <= ? AND end_date >= ?`,
    )
    .all(domainId, day, day);
  const isDefault = (w: DayWindow) =>
    w.start_date === defaultWindow.start_date && w.end_date === defaultWindow.end_date;
  for (const window of [defaultWindow, ...windows.filter((w) => !isDefault(w))]) {
    storeDashboardSnapshot(db, domainId, window, now);
  }
}
