import { writeDerivedScore } from '../../mirror/derivedScore.ts';
import { latestDerivedScore, latestHealth } from '../../mirror/ruleInputs.ts';
import { HEALTH_INSERT, healthRow } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { passingIssues } from '../consistency.ts';
import { domainSignal } from '../definition.ts';
import { healthSnapshotSchema } from '../health.ts';
import { declareSignal } from '../signalDeclaration.ts';

/**
 * The domain's latest health snapshot (GET .../health): what each protocol passes. An alert signal: a
 * record removed or restored shows here first. Its polls are also the health history, and the score they
 * imply (the interface's rule: protocols_passing / 5 × 10) is the domain's score reading.
 */
const health = domainSignal({
  scope: 'domains:read',
  fetch: { path: '/domains/{domain_id}/health', notFound: 'domain_gone' },
  schema: healthSnapshotSchema,
  crossCheck: (value, out) => passingIssues(value, '', out),
  plan: { role: 'core', tier: 'alert', priority: 2, periodSeconds: 15 * 60 },
  words: 'Whether each protocol passes (DMARC, SPF, MTA-STS, TLS-RPT, BIMI)',
  store(db, payload, target) {
    prepared(
      db,
      `${HEALTH_INSERT} ON CONFLICT (domain_id, scanned_at) DO UPDATE SET remote_id = coalesce(excluded.remote_id, remote_id),
       source = excluded.source, result = excluded.result, mail_provider = excluded.mail_provider,
       protocols_json = excluded.protocols_json, protocols_passing = excluded.protocols_passing,
       total_protocols = excluded.total_protocols, dmarc_record = excluded.dmarc_record,
       raw_json = excluded.raw_json, fetched_at = excluded.fetched_at`,
    ).run(healthRow(payload, target));
    // The score follows from the protocols passing (the interface's rule): the newest scan's is recorded as
    // the score reading. The health poll tells a score drop as soon as it tells the protocol lost, derived
    // reading against derived reading; the score endpoint, read weekly, is judged against its own previous
    // answer (a service that weighs scans otherwise never makes news out of the difference).
    const newest = latestHealth(db, target.domainPk);
    if (newest) writeDerivedScore(db, target.domainPk, newest.health, target.fetchedAt);
  },
  lastSeenSql: 'SELECT max(scanned_at) AS v FROM health_snapshots WHERE domain_id = ?',
  // What the rules compare: the newest scan (protocols, health, DMARC record) and the score it implies.
  ruleState: ({ db, domainPk }) => ({
    scan: latestHealth(db, domainPk),
    score: latestDerivedScore(db, domainPk),
  }),
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    health: typeof health;
  }
}

export default declareSignal('health', health);
