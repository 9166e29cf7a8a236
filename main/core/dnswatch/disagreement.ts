/**
 * When DNS and the service tell different stories about a record. A difference is normal for a while: the
 * service scans on its own schedule, so right after a change one of them has not looked yet. It becomes worth
 * saying once it has lasted longer than the service's scan period (the gap between its last two scans, one
 * hour when it has scanned only once) — or at once when the service scanned after DNS saw the change and
 * still says otherwise.
 */
import type { Protocol } from '../../../shared/email-auth/protocols.ts';
import type { DnsWatchRecord, ServiceView } from '../mirror/dnsWatchStore.ts';

/** One disagreement, for the renderer to put in words. */
export interface Disagreement {
  protocol: Protocol;
  /** What DNS answers: a working record, none, or one receivers cannot use. */
  dns: 'present' | 'absent' | 'invalid';
  /** Why DNS's record is invalid, in words. */
  reason: string | null;
  service: 'connected' | 'disconnected';
  /** Since when they disagree. */
  since: string;
  /** The service's latest scan. */
  serviceScannedAt: string;
}

const DEFAULT_SCAN_PERIOD_MS = 60 * 60_000;

/** The disagreement on one record now, or null. */
export function disagreementOf(
  record: DnsWatchRecord,
  service: ServiceView,
  now: number,
): Disagreement | null {
  const said = service.protocols[record.protocol];
  if (!said || said.connected === undefined || said.since === null || service.scannedAt === null) return null;
  if (record.state === null || record.stateSince === null) return null;
  const serviceSays = said.connected ? 'connected' : 'disconnected';
  if (record.state === serviceSays) return null;
  const since = Math.max(Date.parse(record.stateSince), Date.parse(said.since));
  const period =
    service.previousScannedAt === null
      ? DEFAULT_SCAN_PERIOD_MS
      : Date.parse(service.scannedAt) - Date.parse(service.previousScannedAt);
  const scannedSinceChange = Date.parse(service.scannedAt) > Date.parse(record.stateSince);
  if (!scannedSinceChange && now - since <= period) return null;
  // The confirmed state, described by the latest definite answer when it agrees (else: present or absent).
  const dns =
    record.state === 'connected'
      ? 'present'
      : record.answer === 'invalid' || record.answer === 'absent'
        ? record.answer
        : 'absent';
  return {
    protocol: record.protocol,
    dns,
    reason: dns === 'invalid' ? record.reason : null,
    service: serviceSays,
    since: new Date(since).toISOString(),
    serviceScannedAt: service.scannedAt,
  };
}
