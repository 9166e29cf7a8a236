import { writeDnsEvents } from '../../mirror/signalRows.ts';
import { domainSignal } from '../definition.ts';
import { dnsRuleState } from '../../mirror/dnsRuleState.ts';
import { dnsChangesSchema } from '../dnsTimeline.ts';
import { declareSignal } from '../signalDeclaration.ts';

const DAY_MS = 86_400_000;

/**
 * The DNS change events (GET .../dns/changes, every page). A record removed or restored shows in health
 * first, which then fetches the domain's changes at once (the record before and after); the weekly read
 * catches what a poll between two scans could not see.
 */
const dnsChanges = domainSignal({
  scope: 'domains:read',
  fetch: {
    path: '/domains/{domain_id}/dns/changes',
    paginated: true,
    windowed: true,
    incremental: 'newest_held',
    notFound: 'domain_gone',
  },
  schema: dnsChangesSchema,
  plan: { role: 'core', tier: 'history', priority: 1, periodSeconds: 5 * 60, keptPeriodMs: 7 * DAY_MS },
  words: 'Records published or removed in DNS',
  store: (db, payload, target) => writeDnsEvents(db, payload, target),
  lastSeenSql: 'SELECT max(occurred_at) AS v FROM dns_events WHERE domain_id = ?',
  ruleState: dnsRuleState,
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    dns_changes: typeof dnsChanges;
  }
}

export default declareSignal('dns_changes', dnsChanges);
