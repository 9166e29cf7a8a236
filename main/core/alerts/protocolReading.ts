import { PROTOCOLS, type Protocol } from '../signals/primitives.ts';
import type { LatestDnsEvents } from './types.ts';

/** What one signal says about a protocol: its status and the remote time it was observed. */
export interface ProtocolObservation {
  status: 'connected' | 'disconnected';
  at: string;
  /** The DNS event that says so (DNS readings only). */
  eventId?: number;
}

/**
 * The protocol states one signal holds for a domain: the latest health snapshot's flags, or the latest DNS
 * event per protocol. Protocols the signal says nothing about are absent.
 */
export interface ProtocolReading {
  source: 'health' | 'dns';
  protocols: Partial<Record<Protocol, ProtocolObservation>>;
}

/** Protocol names as people write them. */
export const PROTOCOL_LABELS: Record<Protocol, string> = {
  dmarc: 'DMARC',
  spf: 'SPF',
  mta_sts: 'MTA-STS',
  tls_rpt: 'TLS-RPT',
  bimi: 'BIMI',
};

/** A reading from a health snapshot's protocol flags, observed at its scan time. */
export function readingFromHealth(flags: Record<string, unknown>, at: string): ProtocolReading {
  const protocols: ProtocolReading['protocols'] = {};
  for (const p of PROTOCOLS) {
    const flag = flags[p];
    if (typeof flag === 'boolean') protocols[p] = { status: flag ? 'connected' : 'disconnected', at };
  }
  return { source: 'health', protocols };
}

/** A reading from the latest DNS event of each protocol (actions other than connect/disconnect are ignored). */
export function readingFromDnsEvents(latest: LatestDnsEvents): ProtocolReading {
  const protocols: ProtocolReading['protocols'] = {};
  for (const p of PROTOCOLS) {
    const e = latest[p];
    if (e && (e.action === 'connected' || e.action === 'disconnected')) {
      protocols[p] = { status: e.action, at: e.occurredAt, eventId: e.eventId };
    }
  }
  return { source: 'dns', protocols };
}

/** True when a stored DNS event for the protocol, newer than `at`, has the given action. */
export function newerDnsEventSays(
  events: LatestDnsEvents,
  protocol: Protocol,
  at: string,
  action: 'connected' | 'disconnected',
): boolean {
  const e = events[protocol];
  return e !== undefined && e.action === action && Date.parse(e.occurredAt) > Date.parse(at);
}
