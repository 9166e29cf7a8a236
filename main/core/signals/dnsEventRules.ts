import { dnsReading } from '../mirror/ruleInputs.ts';
import type { SignalRules } from './definition.ts';

/** The signals that carry the service's DNS change events. */
const DNS_EVENT_SIGNALS = ['dns_changes', 'dns_timeline'];

/**
 * The rules of the signals carrying DNS events (changes and timeline): the latest event per protocol
 * before and after the write. The domain's first DNS read is a baseline: 30 days of old events are
 * history, not news.
 */
export const dnsEventRules: SignalRules<unknown, 'protocolDisconnected' | 'protocolRestored'> = {
  reads: ['protocolDisconnected', 'protocolRestored'],
  prepare({ db, domainPk, everFetched }, r) {
    const before = dnsReading(db, domainPk, everFetched(DNS_EVENT_SIGNALS));
    return (_payload, ctx) => {
      const after = dnsReading(db, domainPk, true)!;
      return [...r.protocolDisconnected(before, after, ctx), ...r.protocolRestored(before, after, ctx)];
    };
  },
};
