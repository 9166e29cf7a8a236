import { latestMeasuredScore } from '../../mirror/ruleInputs.ts';
import { orNull, json } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { toIso } from '../../mirror/isoTime.ts';
import { domainSignal } from '../definition.ts';
import { securityScoreSchema } from '../securityScore.ts';
import { declareSignal } from '../signalDeclaration.ts';

const DAY_MS = 86_400_000;

/**
 * The service's own security score (GET .../security-score). The health polls imply the score already, so
 * after the first sync this is read weekly, to confirm the derivation; a drop is judged against its own
 * previous answer.
 */
const securityScore = domainSignal({
  scope: 'domains:read',
  fetch: { path: '/domains/{domain_id}/security-score', notFound: 'domain_gone' },
  schema: securityScoreSchema,
  plan: { role: 'core', tier: 'context', priority: 3, periodSeconds: 3600, keptPeriodMs: 7 * DAY_MS },
  words: 'Each domain’s security score',
  store(db, payload, target) {
    prepared(
      db,
      `INSERT INTO security_scores (domain_id, computed_at, score, max_score, interpretation, message, raw_json, fetched_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (domain_id, computed_at) DO UPDATE SET score = excluded.score, max_score = excluded.max_score,
         interpretation = excluded.interpretation, message = excluded.message, raw_json = excluded.raw_json,
         fetched_at = excluded.fetched_at`,
    ).run(
      target.domainPk,
      payload.computed_at ? toIso(payload.computed_at) : target.fetchedAt,
      payload.score,
      orNull(payload.max_score),
      orNull(payload.interpretation),
      orNull(payload.message),
      json(payload),
      target.fetchedAt,
    );
  },
  lastSeenSql: 'SELECT max(computed_at) AS v FROM security_scores WHERE domain_id = ?',
  ruleState: ({ db, domainPk }) => latestMeasuredScore(db, domainPk),
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    security_score: typeof securityScore;
  }
}

export default declareSignal('security_score', securityScore);
