import { dnsReading } from './ruleInputs.ts';
import type { RuleIo, RulePhase } from '../signals/definition.ts';

/** The signals that carry the service's DNS change events. */
const DNS_EVENT_SIGNALS = ['dns_changes', 'dns_timeline'];

/**
 * The rule state of the signals carrying DNS events (changes and timeline): the latest event per protocol.
 * Before the domain's first DNS read it is null: 30 days of old events are history, not news.
 */
export function dnsRuleState({ db, domainPk, everFetched }: RuleIo, phase: RulePhase) {
  return dnsReading(db, domainPk, phase === 'after' || everFetched(DNS_EVENT_SIGNALS));
}
