import { isoOrNull, json, orNull, writeDnsEvents } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { domainSignal } from '../definition.ts';
import { dnsRuleState } from '../../mirror/dnsRuleState.ts';
import { dnsTimelineSchema } from '../dnsTimeline.ts';
import { declareSignal } from '../signalDeclaration.ts';

/** The DNS timeline (GET .../dns/timeline): events plus a per-protocol summary; read when opened. */
const dnsTimeline = domainSignal({
  scope: 'domains:read',
  fetch: {
    path: '/domains/{domain_id}/dns/timeline',
    windowed: true,
    limitOnly: true,
    notFound: 'domain_gone',
  },
  schema: dnsTimelineSchema,
  plan: { role: 'on_demand', tier: 'history', priority: 4, periodSeconds: 6 * 3600 },
  words: 'When each protocol connected or disconnected',
  store(db, payload, target) {
    writeDnsEvents(db, payload.events, target);
    const upsert = prepared(
      db,
      `INSERT INTO dns_timeline_summary (domain_id, protocol, current_status, last_connected, last_disconnected,
         connection_count, disconnection_count, raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (domain_id, protocol) DO UPDATE SET current_status = excluded.current_status,
         last_connected = excluded.last_connected, last_disconnected = excluded.last_disconnected,
         connection_count = excluded.connection_count, disconnection_count = excluded.disconnection_count,
         raw_json = excluded.raw_json, fetched_at = excluded.fetched_at`,
    );
    for (const [protocol, s] of Object.entries(payload.summary ?? {})) {
      upsert.run(
        target.domainPk,
        protocol,
        orNull(s.current_status),
        isoOrNull(s.last_connected),
        isoOrNull(s.last_disconnected),
        orNull(s.connection_count),
        orNull(s.disconnection_count),
        json(s),
        target.fetchedAt,
      );
    }
  },
  lastSeenSql: 'SELECT max(occurred_at) AS v FROM dns_events WHERE domain_id = ?',
  ruleState: dnsRuleState,
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    dns_timeline: typeof dnsTimeline;
  }
}

export default declareSignal('dns_timeline', dnsTimeline);
