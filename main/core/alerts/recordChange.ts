import type { RecordChange, RecordSide } from '../../../shared/bridge/incidents.ts';
import type { Alert } from '../../../shared/bridge/results.ts';
import { isProtocol, type Protocol } from '../signals/primitives.ts';

/** One value a protocol's record had, and since when (null: no record); the mirror reads them. */
export interface RecordObservation {
  at: string;
  value: string | null;
}

const t = (iso: string) => Date.parse(iso);
// An empty record text (a scan that found nothing may say "") is no record.
const present = (o: RecordObservation) => o.value !== null && o.value.trim() !== '';
const side = (o: RecordObservation | undefined): RecordSide =>
  o === undefined
    ? { kind: 'unknown' }
    : o.value === null || !present(o)
      ? { kind: 'none' }
      : { kind: 'record', value: o.value };

/** The protocol a DNS alert is about, or null for other alerts. */
function dnsAlertProtocol(alert: Alert): Protocol | null {
  if (alert.rule !== 'protocol_disconnected' && alert.rule !== 'protocol_restored') return null;
  const p = alert.details.protocol;
  return typeof p === 'string' && isProtocol(p) ? p : null;
}

/**
 * Before and after for a disconnect or a repair, from what the mirror saw of the record (oldest first).
 * Disconnected: before is the last record seen before the disconnection, after what was seen at it (usually
 * nothing). Restored: before is nothing, after the first record seen from the repair on (or the last one
 * seen up to it).
 */
export function recordChangeOf(
  alert: Alert,
  observations: readonly RecordObservation[],
): RecordChange | null {
  const protocol = dnsAlertProtocol(alert);
  if (!protocol) return null;
  const detail = (key: string) =>
    typeof alert.details[key] === 'string' ? (alert.details[key] as string) : null;
  if (alert.rule === 'protocol_disconnected') {
    const at = t(detail('disconnectedAt') ?? alert.firstSeenAt);
    const before = observations.filter((o) => t(o.at) < at && present(o)).at(-1);
    // What was seen during the outage: a record other than the old one is a broken replacement; anything
    // else (nothing seen, or the old text from a stale copy) means the record is gone, as the alert says.
    const during = observations.filter((o) => t(o.at) >= at && t(o.at) <= t(alert.lastSeenAt));
    const replaced = during.find((o) => present(o) && o.value !== before?.value);
    return { protocol, before: side(before), after: replaced ? side(replaced) : { kind: 'none' } };
  }
  const since = t(detail('disconnectedAt') ?? alert.firstSeenAt);
  const at = t(detail('restoredAt') ?? alert.firstSeenAt);
  const after =
    observations.filter((o) => present(o) && t(o.at) > since && t(o.at) <= at).at(-1) ??
    observations.find((o) => present(o) && t(o.at) > at);
  return { protocol, before: { kind: 'none' }, after: side(after) };
}

/**
 * The incidents with each DNS alert's record before and after; observations are read once per domain and
 * protocol (a hundred incidents of one domain cost one query per protocol).
 */
export function withRecordChanges<I extends { alerts: Alert[] }>(
  incidents: readonly I[],
  observe: (alert: Alert, protocol: Protocol) => RecordObservation[],
): (Omit<I, 'alerts'> & { alerts: (Alert & { recordChange: RecordChange | null })[] })[] {
  const memo = new Map<string, RecordObservation[]>();
  return incidents.map((incident) => ({
    ...incident,
    alerts: incident.alerts.map((alert) => {
      const protocol = dnsAlertProtocol(alert);
      if (!protocol) return { ...alert, recordChange: null };
      const key = `${alert.accountId}|${alert.domainId}|${protocol}`;
      let seen = memo.get(key);
      if (!seen) memo.set(key, (seen = observe(alert, protocol)));
      return { ...alert, recordChange: recordChangeOf(alert, seen) };
    }),
  }));
}
