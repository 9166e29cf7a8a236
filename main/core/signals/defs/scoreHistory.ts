import { toIso } from '../../mirror/isoTime.ts';
import { json, orNull } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { derivedScoreIssues, isObj, notAbove, rows } from '../consistency.ts';
import { domainSignal } from '../definition.ts';
import { scoreHistorySchema } from '../securityScore.ts';
import { declareSignal } from '../signalDeclaration.ts';

const DAY_MS = 86_400_000;

/** The derived score history (GET .../security-score/history): backfilled, then read weekly. */
const scoreHistory = domainSignal({
  scope: 'domains:read',
  fetch: {
    path: '/domains/{domain_id}/security-score/history',
    windowed: true,
    limitOnly: true,
    incremental: 'last_read',
    notFound: 'domain_gone',
  },
  schema: scoreHistorySchema,
  crossCheck(value, out) {
    rows(value.history).forEach((row, i) => {
      if (isObj(row)) notAbove(row, 'protocols_passing', 'total_protocols', `history.${i}.`, out);
      derivedScoreIssues(row, `history.${i}.`, out);
    });
  },
  plan: { role: 'history', tier: 'history', priority: 5, periodSeconds: 6 * 3600, keptPeriodMs: 7 * DAY_MS },
  words: 'How the security score moved',
  store(db, payload, target) {
    const insert = prepared(
      db,
      `INSERT INTO score_history (domain_id, scanned_at, derived_score, protocols_passing, total_protocols, result,
         raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (domain_id, scanned_at) DO UPDATE SET derived_score = excluded.derived_score,
         protocols_passing = excluded.protocols_passing, total_protocols = excluded.total_protocols,
         result = excluded.result, raw_json = excluded.raw_json, fetched_at = excluded.fetched_at`,
    );
    for (const p of payload.history) {
      insert.run(
        target.domainPk,
        toIso(p.scanned_at),
        p.derived_score,
        orNull(p.protocols_passing),
        orNull(p.total_protocols),
        orNull(p.result),
        json(p),
        target.fetchedAt,
      );
    }
  },
  lastSeenSql: 'SELECT max(scanned_at) AS v FROM score_history WHERE domain_id = ?',
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    score_history: typeof scoreHistory;
  }
}

export default declareSignal('score_history', scoreHistory);
