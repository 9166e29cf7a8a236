import type { Database } from 'better-sqlite3';
import type { HealthReading } from '../alerts/rules/healthRegressed.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/** The interface's rule: derived_score = protocols_passing / 5 × 10. */
const MAX_SCORE = 10;
const TOTAL_PROTOCOLS = 5;

/**
 * Records the score a health snapshot implies (the interface's rule) as the domain's score reading and score
 * history point of that scan, unless the service's own reading of the same scan is already held: the
 * engine derives the score from the health it polls instead of polling the score endpoint, which it reads
 * weekly to confirm (its answer for the same scan replaces the derived one). Returns false when the
 * snapshot does not say how many protocols pass.
 */
export function writeDerivedScore(
  db: Database,
  domainPk: number,
  health: HealthReading,
  at: string,
): boolean {
  if (health.passing === null) return false;
  const total = health.total ?? TOTAL_PROTOCOLS;
  if (total <= 0) return false;
  const score = Math.round(((health.passing * MAX_SCORE) / total) * 10) / 10;
  const message = `Derived from the ${health.passing} of ${total} protocols passing at the last scan.`;
  // `derived_score` marks the reading as derived (the score history shows it as such, not as measured).
  const raw = JSON.stringify({
    score,
    max_score: MAX_SCORE,
    message,
    computed_at: health.at,
    derived_score: score,
    protocols_passing: health.passing,
    total_protocols: total,
  });
  prepared(
    db,
    `INSERT INTO security_scores (domain_id, computed_at, score, max_score, interpretation, message, raw_json, fetched_at)
     VALUES (?, ?, ?, ?, NULL, ?, ?, ?) ON CONFLICT (domain_id, computed_at) DO NOTHING`,
  ).run(domainPk, health.at, score, MAX_SCORE, message, raw, at);
  prepared(
    db,
    `INSERT INTO score_history (domain_id, scanned_at, derived_score, protocols_passing, total_protocols, result,
       raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (domain_id, scanned_at) DO NOTHING`,
  ).run(domainPk, health.at, score, health.passing, total, health.result, raw, at);
  return true;
}
