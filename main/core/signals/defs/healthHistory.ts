import { latestHealth } from '../../mirror/ruleInputs.ts';
import { HEALTH_INSERT, healthRow } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { passingIssues, rows } from '../consistency.ts';
import { domainSignal } from '../definition.ts';
import { healthHistorySchema } from '../health.ts';
import { declareSignal } from '../signalDeclaration.ts';

const DAY_MS = 86_400_000;

/**
 * The health history (GET .../health/history, every page): backfilled on a domain's first sync, then read
 * weekly for what the health polls between two scans could not see, and at once after a gap.
 */
const healthHistory = domainSignal({
  scope: 'domains:read',
  fetch: {
    path: '/domains/{domain_id}/health/history',
    paginated: true,
    windowed: true,
    incremental: 'last_read',
    notFound: 'domain_gone',
  },
  schema: healthHistorySchema,
  crossCheck: (value, out) => rows(value).forEach((row, i) => passingIssues(row, `${i}.`, out)),
  plan: { role: 'history', tier: 'history', priority: 5, periodSeconds: 6 * 3600, keptPeriodMs: 7 * DAY_MS },
  words: 'How each domain’s protocols passed over time',
  store(db, payload, target) {
    // A history row never overwrites a stored snapshot (the current-snapshot answer carries more fields).
    const insert = prepared(db, `${HEALTH_INSERT} ON CONFLICT (domain_id, scanned_at) DO NOTHING`);
    for (const row of payload) insert.run(healthRow(row, target));
  },
  lastSeenSql: 'SELECT max(scanned_at) AS v FROM health_snapshots WHERE domain_id = ?',
  // The rules compare the newest scan, as for the health polls (a backfilled older scan changes nothing).
  ruleState: ({ db, domainPk }) => ({ scan: latestHealth(db, domainPk) }),
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    health_history: typeof healthHistory;
  }
}

export default declareSignal('health_history', healthHistory);
