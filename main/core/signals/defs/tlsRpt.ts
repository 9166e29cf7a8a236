import { json } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { domainSignal } from '../definition.ts';
import { tlsRptSummarySchema } from '../tlsRpt.ts';
import { declareSignal } from '../signalDeclaration.ts';

/** The TLS-RPT configuration and failure totals, composed from two calls: read when the domain is opened. */
const tlsRpt = domainSignal({
  scope: 'domains:read',
  fetch: {
    path: '/domains/{domain_id}/tls-rpt',
    parts: { config: '/domains/{domain_id}/tls-rpt', failures: '/domains/{domain_id}/tls-rpt/failures' },
    notFound: 'absent',
  },
  schema: tlsRptSummarySchema,
  plan: { role: 'on_demand', tier: 'history', priority: 5, periodSeconds: 6 * 3600 },
  words: 'Reports of failed encrypted deliveries (TLS-RPT)',
  store(db, payload, target) {
    prepared(
      db,
      `INSERT INTO tls_rpt_summaries (domain_id, config_json, failures_json, raw_json, fetched_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (domain_id) DO UPDATE SET config_json = excluded.config_json,
         failures_json = excluded.failures_json, raw_json = excluded.raw_json, fetched_at = excluded.fetched_at`,
    ).run(
      target.domainPk,
      payload.config ? json(payload.config) : null,
      payload.failures ? json(payload.failures) : null,
      json(payload),
      target.fetchedAt,
    );
  },
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    tls_rpt: typeof tlsRpt;
  }
}

export default declareSignal('tls_rpt', tlsRpt);
