import { PROTOCOLS, type Protocol } from '../signals/primitives.ts';
import type { StatusRows } from '../mirror/statusRows.ts';
import { dnsWatchEvidence } from './dnsWatchEvidence.ts';
import type { DomainStatusInput } from './domainStatus.ts';
import type { ProtocolEvidence } from './evidence.ts';

/**
 * What the mirror's rows of one domain say to the status model (main/core/mirror/statusRows.ts reads them):
 * each source's rows turned into evidence (see evidence.ts), with the domain's open alerts and pending
 * changes. A domain with no rows has no evidence.
 */
export function statusInputOf(rows: StatusRows | undefined): DomainStatusInput {
  if (!rows) return { evidence: [], openAlerts: [] };
  return { evidence: evidenceOf(rows), openAlerts: rows.openAlerts, pending: rows.pending };
}

/** The newest observation of `protocol` among the rows (a pending change's baseline), or null. */
export function newestObservation(rows: StatusRows | undefined, protocol: Protocol): string | null {
  if (!rows) return null;
  return evidenceOf(rows)
    .filter((e) => e.protocol === protocol)
    .reduce<string | null>(
      (newest, e) => (!newest || Date.parse(e.at) > Date.parse(newest) ? e.at : newest),
      null,
    );
}

/** The evidence of every source, the scan's first, then the events', the service DNS status's, the watch's. */
function evidenceOf(rows: StatusRows): ProtocolEvidence[] {
  const evidence: ProtocolEvidence[] = [];
  const h = rows.health;
  if (h) {
    for (const protocol of PROTOCOLS) {
      const flag = h.flags[protocol];
      if (typeof flag !== 'boolean') continue;
      if (protocol === 'dmarc') {
        // The scan carries the DMARC record ('' reads as none published): it tells absent from invalid.
        const record = h.dmarcRecord || null;
        const finding = flag ? 'valid' : record === null ? 'absent' : 'invalid';
        evidence.push({ protocol, source: 'service_scan', at: h.scannedAt, finding, record });
        continue;
      }
      evidence.push({
        protocol,
        source: 'service_scan',
        at: h.scannedAt,
        finding: flag ? 'valid' : 'not_passing',
      });
    }
  }
  for (const e of rows.dnsEvents) {
    evidence.push({
      protocol: e.protocol,
      source: 'dns_event',
      at: e.occurredAt,
      finding: e.action === 'connected' ? 'published' : 'absent',
      record: e.action === 'connected' ? e.recordValue : null,
    });
  }
  for (const c of rows.dnsCurrent) {
    // The status holds since its last change; without that time it cannot be placed among the others.
    const at = c.currentStatus === 'connected' ? c.lastConnected : c.lastDisconnected;
    if (!at || (c.currentStatus !== 'connected' && c.currentStatus !== 'disconnected')) continue;
    evidence.push({
      protocol: c.protocol,
      source: 'dns_status',
      at,
      finding: c.currentStatus === 'connected' ? 'published' : 'absent',
    });
  }
  for (const r of rows.watched) {
    const e = dnsWatchEvidence(r);
    if (e) evidence.push(e);
  }
  return evidence;
}
