import type { Protocol } from '../signals/primitives.ts';
import type { EvidenceRef, EvidenceSource, Finding } from '../../../shared/bridge/results.ts';

export type { EvidenceRef, EvidenceSource, Finding };

/**
 * Evidence: what one source observed about one protocol's record, and when. The status model takes a plain
 * list of these from any number of sources and lets the newest fact win, so the sources never need to know
 * about each other.
 *
 * How to add a source (e.g. a direct DNS watch answering "DNS, 2 min ago"):
 *   1. add its name to EVIDENCE_SOURCE_NAMES (shared/bridge/results.ts) and to EVIDENCE_SOURCES below with the words people read on hover ("DNS") and a rank
 *      (used only to break a tie between two facts observed at the same instant: the higher rank is shown);
 *   2. turn what it observed into ProtocolEvidence items — `finding` says how much it knows: a full check
 *      is `valid`, `invalid` or `absent`; a presence-only signal is `published` or `absent`; a pass flag
 *      without the reason is `not_passing` — with `at` the time of the observation on the same clock as the
 *      other sources (the service's, i.e. real UTC) and `record` when it carries the record's text;
 *   3. read its rows in main/core/mirror/statusRows.ts (the stored sources of one domain or the whole
 *      portfolio in a few queries, decoded, never judged) and turn them into evidence in statusInput.ts here;
 *   4. if the source is a table of its own, a migration adds the status_dirty triggers on it (as v12 does for
 *      the others): the mirror keeps each domain's status (main/core/mirror/statusSummary.ts, by the
 *      STATUS_MODEL of statusModel.ts, in the registry openMirror is given) and derives it again only when
 *      a table it reads marks the domain.
 * Nothing else changes: protocolStatus() merges findings by time whatever their source.
 */
export const EVIDENCE_SOURCES = {
  /** The service's health snapshot: its scan's pass flag per protocol (and the DMARC record). */
  service_scan: { label: 'service scan', rank: 1 },
  /** The service's DNS current status: whether each record is published, since its last change. */
  dns_status: { label: 'service DNS status', rank: 2 },
  /** A DNS change event (connected / disconnected) from the service's timeline. */
  dns_event: { label: 'DNS change event', rank: 3 },
  /** The app's own DNS watch (main/core/dnswatch): its confirmed answer, judged as receivers judge it. */
  dns_watch: { label: 'DNS', rank: 4 },
} as const satisfies Record<EvidenceSource, { label: string; rank: number }>;

/** One observation of one protocol. */
export interface ProtocolEvidence {
  protocol: Protocol;
  source: EvidenceSource;
  /** When it was observed (ISO, the service's clock). */
  at: string;
  finding: Finding;
  /** The record's text as observed (null: observed absent); left out when the source does not carry it. */
  record?: string | null;
  /** Who answered, when the source has several (the DNS watch's resolver "127.0.0.1:5353"). */
  via?: string;
}

/** The reference to show for one piece of evidence. */
export function evidenceRef(e: Pick<ProtocolEvidence, 'source' | 'at' | 'via'>): EvidenceRef {
  const label = EVIDENCE_SOURCES[e.source].label;
  return { source: e.source, label: e.via ? `${label} via ${e.via}` : label, at: e.at };
}

/** Orders evidence oldest first; at the same instant the lower rank first (so the higher rank is "newest"). */
export function byObservation(a: ProtocolEvidence, b: ProtocolEvidence): number {
  return (
    Date.parse(a.at) - Date.parse(b.at) || EVIDENCE_SOURCES[a.source].rank - EVIDENCE_SOURCES[b.source].rank
  );
}
