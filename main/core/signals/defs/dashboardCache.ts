import { isoOrNull, json } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { windowIssues } from '../consistency.ts';
import { dashboardCacheSchema } from '../dashboardCache.ts';
import { domainSignal } from '../definition.ts';
import { declareSignal } from '../signalDeclaration.ts';

/** The service's precomputed mail summary of a window (GET .../dashboard-cache): read when opened. */
const dashboardCache = domainSignal({
  scope: 'domains:read',
  fetch: { path: '/domains/{domain_id}/dashboard-cache', windowed: true, notFound: 'domain_gone' },
  schema: dashboardCacheSchema,
  crossCheck: (value, out) => windowIssues(value, out),
  plan: { role: 'on_demand', tier: 'history', priority: 5, periodSeconds: 6 * 3600 },
  words: 'Each domain’s mail summary for the chosen days',
  store(db, payload, target) {
    const start = target.window.start || payload.start_date || '';
    const end = target.window.end || payload.end_date || '';
    prepared(
      db,
      `INSERT INTO dashboard_cache (domain_id, window_start, window_end, cached, cached_at, data_json, raw_json, fetched_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (domain_id, window_start, window_end) DO UPDATE SET cached = excluded.cached,
         cached_at = excluded.cached_at, data_json = excluded.data_json, raw_json = excluded.raw_json,
         fetched_at = excluded.fetched_at`,
    ).run(
      target.domainPk,
      start,
      end,
      Number(payload.cached),
      isoOrNull(payload.cached_at),
      payload.data ? json(payload.data) : null,
      json(payload),
      target.fetchedAt,
    );
  },
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    dashboard_cache: typeof dashboardCache;
  }
}

export default declareSignal('dashboard_cache', dashboardCache);
