import { PROTOCOL_LABELS as LABELS } from '../../../shared/email-auth/protocols.ts';
import { isProtocol, PROTOCOLS, type Protocol } from '../signals/primitives.ts';
import type { LatestDnsEvents, WatchedDns } from './types.ts';

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
  /** health: the service's scan; dns: the service's DNS change events; dns_watch: the app's own DNS queries. */
  source: 'health' | 'dns' | 'dns_watch';
  protocols: Partial<Record<Protocol, ProtocolObservation>>;
}

/** Protocol names as people write them (defined once, in shared/email-auth). */
export { PROTOCOL_LABELS } from '../../../shared/email-auth/protocols.ts';

/** "SPF disconnected": a protocol alert in words, from the protocol its details name (null: none named). */
export function protocolWords(details: Record<string, unknown>, what: string): string | null {
  const protocol = details.protocol;
  return typeof protocol === 'string' && isProtocol(protocol) ? `${LABELS[protocol]} ${what}` : null;
}

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

/**
 * How long before a scan the DNS watch's "disconnected" still outweighs the scan's "connected". The watch
 * asks again at least every TTL (a minute or so) and closes the episode itself when DNS shows the record
 * again; the service calls an invalid record (two DMARC records, a broken SPF) connected, so a scan must not
 * close an episode the watch keeps confirming just because its last answer came a few seconds before it.
 */
const WATCH_OUTWEIGHS_SCAN_MS = 10 * 60_000;

/**
 * True when DNS evidence newer than `at` says the protocol is `action`: a stored DNS change event of the
 * service, or the app's own DNS watch (its latest answer agreeing with its confirmed state; for
 * "disconnected", answers up to WATCH_OUTWEIGHS_SCAN_MS before `at` count).
 */
export function newerDnsEventSays(
  events: LatestDnsEvents,
  protocol: Protocol,
  at: string,
  action: 'connected' | 'disconnected',
  watched: WatchedDns = {},
): boolean {
  const e = events[protocol];
  if (e !== undefined && e.action === action && Date.parse(e.occurredAt) > Date.parse(at)) return true;
  const w = watched[protocol];
  if (w === undefined || w.status !== action) return false;
  const slack = action === 'disconnected' ? WATCH_OUTWEIGHS_SCAN_MS : 0;
  return Date.parse(w.at) > Date.parse(at) - slack;
}
