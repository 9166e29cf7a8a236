import type { Protocol } from '../signals/primitives.ts';
import { PROTOCOL_LABELS } from '../../../shared/email-auth/protocols.ts';
import type { ProtocolState, ProtocolView } from '../../../shared/bridge/results.ts';
import { byObservation, evidenceRef, type Finding, type ProtocolEvidence } from './evidence.ts';

/** The four states a protocol can be in, never two: not set up and not checked yet are not failures. */
export type { ProtocolState };

/** DMARC and SPF are required (not set up is failing); BIMI, MTA-STS and TLS-RPT are optional (neutral). */
export const REQUIRED_PROTOCOLS: ReadonlySet<Protocol> = new Set<Protocol>(['dmarc', 'spf']);

/** One protocol of one domain as every surface shows it (its pending change aside). */
export type ProtocolStatus = Omit<ProtocolView, 'pending'>;

/** What besides evidence a protocol's state depends on. */
export interface ProtocolContext {
  /** A protocol_disconnected alert is open for it: the user has not accepted the record's removal. */
  disconnectAlertOpen: boolean;
}

interface Fact {
  value: boolean;
  evidence: ProtocolEvidence;
}

const PRESENCE: Partial<Record<Finding, boolean>> = {
  valid: true,
  invalid: true,
  published: true,
  absent: false,
};
const VALIDITY: Partial<Record<Finding, boolean>> = {
  valid: true,
  invalid: false,
  absent: false,
  not_passing: false,
};

/**
 * Merges the evidence of one protocol by time. Each finding says something about two facts — is a record
 * published, does it pass — and each fact takes its newest observation whatever the source. A pass
 * reading older than the newest change of presence says nothing about the record now there (a record
 * restored after a failing scan is published, not invalid), so it is dropped.
 */
export function mergeFindings(evidence: readonly ProtocolEvidence[]): {
  finding: Finding | null;
  newest: ProtocolEvidence | null;
  presence: ProtocolEvidence | null;
  record: string | null;
} {
  const sorted = [...evidence].sort(byObservation);
  let presence: Fact | null = null;
  let validity: Fact | null = null;
  let record: string | null = null;
  for (const e of sorted) {
    const present = PRESENCE[e.finding];
    const valid = VALIDITY[e.finding];
    if (present !== undefined) presence = { value: present, evidence: e };
    if (valid !== undefined) validity = { value: valid, evidence: e };
    if (e.record !== undefined) record = e.record;
  }
  if (validity && presence && Date.parse(validity.evidence.at) < Date.parse(presence.evidence.at)) {
    validity = presence.value ? null : { value: false, evidence: presence.evidence };
  }
  const newest = sorted.at(-1) ?? null;
  let finding: Finding | null;
  if (presence?.value === false) finding = 'absent';
  else if (presence?.value === true)
    finding = validity === null ? 'published' : validity.value ? 'valid' : 'invalid';
  else if (validity) finding = validity.value ? 'valid' : 'not_passing';
  else finding = null;
  return { finding, newest, presence: presence?.evidence ?? null, record };
}

/** A protocol's state from every piece of evidence about it (any source, any order). */
export function protocolStatus(
  protocol: Protocol,
  evidence: readonly ProtocolEvidence[],
  context: ProtocolContext,
): ProtocolStatus {
  const required = REQUIRED_PROTOCOLS.has(protocol);
  const own = evidence.filter((e) => e.protocol === protocol);
  const merged = mergeFindings(own);
  const base = {
    protocol,
    label: PROTOCOL_LABELS[protocol],
    required,
    finding: merged.finding,
    record: merged.record,
    evidence: merged.newest ? evidenceRef(merged.newest) : null,
  };
  // A removal the evidence shows happening (the newest connection change is a disconnection, or an episode is
  // still open) is "disconnected"; a record never seen is "not set up".
  const changes = own
    .filter((e) => e.source === 'dns_event' || e.source === 'dns_status')
    .sort(byObservation);
  const removed = context.disconnectAlertOpen || changes.at(-1)?.finding === 'absent';
  const state = (s: ProtocolState, words: string): ProtocolStatus => ({ ...base, state: s, words });
  switch (merged.finding) {
    case null:
      return state('unknown', 'not checked yet');
    case 'valid':
      return state('passing', 'passing');
    case 'published':
      return state('passing', 'published');
    case 'invalid':
      return state('failing', 'invalid record');
    case 'absent':
      if (required) return state('failing', removed ? 'disconnected' : 'not set up');
      return context.disconnectAlertOpen
        ? state('failing', 'disconnected')
        : state('not_set_up', 'not set up');
    case 'not_passing':
      if (required) return state('failing', context.disconnectAlertOpen ? 'disconnected' : 'not passing');
      return context.disconnectAlertOpen
        ? state('failing', 'disconnected')
        : state('not_set_up', 'not set up');
  }
}
