import { bool, isoOrNull, json, orNull } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { domainSignal } from '../definition.ts';
import { dnsCurrentSchema } from '../dnsTimeline.ts';
import { declareSignal } from '../signalDeclaration.ts';

/** The DNS records published now, per protocol (GET .../dns/current): read when the domain is opened. */
const dnsCurrent = domainSignal({
  scope: 'domains:read',
  fetch: { path: '/domains/{domain_id}/dns/current', notFound: 'domain_gone' },
  schema: dnsCurrentSchema,
  plan: { role: 'on_demand', tier: 'history', priority: 4, periodSeconds: 6 * 3600 },
  words: 'The DNS records published now',
  store(db, payload, target) {
    // The answer is the complete current map: a protocol it no longer lists is no longer current.
    prepared(db, 'DELETE FROM dns_current WHERE domain_id = ?').run(target.domainPk);
    const insert = prepared(
      db,
      `INSERT INTO dns_current (domain_id, protocol, current_status, verified, status, last_connected,
         last_disconnected, record_value, lookup_count, raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const [protocol, e] of Object.entries(payload.protocols)) {
      insert.run(
        target.domainPk,
        protocol,
        orNull(e.current_status),
        bool(e.verified),
        orNull(e.status),
        isoOrNull(e.last_connected),
        isoOrNull(e.last_disconnected),
        orNull(e.record_value),
        orNull(e.lookup_count),
        json(e),
        target.fetchedAt,
      );
    }
  },
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    dns_current: typeof dnsCurrent;
  }
}

export default declareSignal('dns_current', dnsCurrent);
