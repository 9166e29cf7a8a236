import { toIso } from '../../mirror/isoTime.ts';
import { json, orNull } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { domainSignal } from '../definition.ts';
import { dnsHistorySchema } from '../dnsTimeline.ts';
import { declareSignal } from '../signalDeclaration.ts';

/** Earlier values of the DMARC and SPF records (GET .../dns/history, every page): read when opened. */
const dnsHistory = domainSignal({
  scope: 'domains:read',
  fetch: {
    path: '/domains/{domain_id}/dns/history',
    paginated: true,
    windowed: true,
    notFound: 'domain_gone',
  },
  schema: dnsHistorySchema,
  plan: { role: 'on_demand', tier: 'history', priority: 5, periodSeconds: 6 * 3600 },
  words: 'Earlier values of the DNS records',
  store(db, payload, target) {
    const insert = prepared(
      db,
      `INSERT OR IGNORE INTO dns_record_history (domain_id, record_type, occurred_at, record_value, lookup_count,
         raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const row of payload) {
      insert.run(
        target.domainPk,
        row.record_type,
        toIso(row.occurred_at),
        orNull(row.record_value),
        orNull(row.lookup_count),
        json(row),
        target.fetchedAt,
      );
    }
  },
  lastSeenSql: 'SELECT max(occurred_at) AS v FROM dns_record_history WHERE domain_id = ?',
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    dns_history: typeof dnsHistory;
  }
}

export default declareSignal('dns_history', dnsHistory);
