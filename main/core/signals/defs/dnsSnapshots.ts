import { toIso } from '../../mirror/isoTime.ts';
import { json, orNull } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { domainSignal } from '../definition.ts';
import { dnsSnapshotsSchema } from '../dnsTimeline.ts';
import { declareSignal } from '../signalDeclaration.ts';

/** Daily copies of the DMARC and SPF records (GET .../dns/snapshots): read when the domain is opened. */
const dnsSnapshots = domainSignal({
  scope: 'domains:read',
  fetch: {
    path: '/domains/{domain_id}/dns/snapshots',
    windowed: true,
    limitOnly: true,
    notFound: 'domain_gone',
  },
  schema: dnsSnapshotsSchema,
  plan: { role: 'on_demand', tier: 'history', priority: 5, periodSeconds: 6 * 3600 },
  words: 'Daily copies of the DNS records',
  store(db, payload, target) {
    const insert = prepared(
      db,
      `INSERT INTO dns_snapshots (domain_id, record_type, remote_id, record_value, occurred_at, lookup_count, raw_json,
         fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (domain_id, record_type, remote_id) DO NOTHING`,
    );
    for (const recordType of ['dmarc', 'spf'] as const) {
      for (const row of payload[recordType] ?? []) {
        insert.run(
          target.domainPk,
          recordType,
          row.id,
          orNull(row.record_value),
          toIso(row.occurred_at),
          orNull(row.lookup_count),
          json(row),
          target.fetchedAt,
        );
      }
    }
  },
  lastSeenSql: 'SELECT max(occurred_at) AS v FROM dns_snapshots WHERE domain_id = ?',
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    dns_snapshots: typeof dnsSnapshots;
  }
}

export default declareSignal('dns_snapshots', dnsSnapshots);
