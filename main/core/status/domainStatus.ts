import { PROTOCOLS, type Protocol } from '../signals/primitives.ts';
import { byObservation, evidenceRef, type EvidenceRef, type ProtocolEvidence } from './evidence.ts';
import { dmarcPolicyOf, type DmarcPolicyView } from './dmarcPolicy.ts';
import { pendingView, type PendingChange, type PendingView } from './pending.ts';
import { protocolStatus, type ProtocolStatus } from './protocolStatus.ts';
import { verdict, type Verdict, type VerdictAlert } from './verdict.ts';

/** Everything the status of one domain is derived from. */
export interface DomainStatusInput {
  /** Every observation of the domain's protocols, from any source, in any order. */
  evidence: readonly ProtocolEvidence[];
  /** The domain's open alerts (acknowledged and resolved ones are not open). */
  openAlerts: readonly VerdictAlert[];
  /** Successful writes not yet confirmed, any order (the newest per protocol counts). */
  pending?: readonly PendingChange[];
}

/** A protocol with its pending change, if any. */
export interface ProtocolView extends ProtocolStatus {
  pending: PendingView | null;
}

/** Counts behind the protocols line ("2 of 2 required pass · 1 of 3 optional set up"). */
export interface ProtocolCounts {
  requiredPassing: number;
  requiredTotal: number;
  /** Optional protocols set up and passing. */
  optionalPassing: number;
  optionalFailing: number;
  optionalTotal: number;
  unknown: number;
}

/** One domain's status as every surface shows it. */
export interface DomainStatus {
  protocols: Record<Protocol, ProtocolView>;
  verdict: Verdict;
  /** The DMARC policy of the newest DMARC record any source carried, or null. */
  dmarc: DmarcPolicyView | null;
  counts: ProtocolCounts;
  /** The protocols in one line, the same everywhere (never "5 of 5 pass" beside "4 of 5"). */
  protocolsText: string;
  /** The newest evidence of the domain, whatever the protocol: how old its status is. */
  newest: EvidenceRef | null;
}

function counts(protocols: Record<Protocol, ProtocolStatus>): ProtocolCounts {
  const list = PROTOCOLS.map((p) => protocols[p]);
  const required = list.filter((p) => p.required);
  const optional = list.filter((p) => !p.required);
  return {
    requiredPassing: required.filter((p) => p.state === 'passing').length,
    requiredTotal: required.length,
    optionalPassing: optional.filter((p) => p.state === 'passing').length,
    optionalFailing: optional.filter((p) => p.state === 'failing').length,
    optionalTotal: optional.length,
    unknown: list.filter((p) => p.state === 'unknown').length,
  };
}

function protocolsText(c: ProtocolCounts): string {
  if (c.unknown === PROTOCOLS.length) return 'Not checked yet';
  const failing = c.optionalFailing ? `, ${c.optionalFailing} failing` : '';
  return `${c.requiredPassing} of ${c.requiredTotal} required pass · ${c.optionalPassing} of ${c.optionalTotal} optional set up${failing}`;
}

function newestPending(pending: readonly PendingChange[], protocol: Protocol): PendingChange | null {
  let newest: PendingChange | null = null;
  for (const p of pending) {
    if (p.protocol === protocol && (!newest || p.changedAt > newest.changedAt)) newest = p;
  }
  return newest;
}

/** The one status of a domain: per protocol from the newest evidence, the verdict from those and the alerts. */
export function domainStatus(input: DomainStatusInput): DomainStatus {
  const disconnectOpen = new Set(
    input.openAlerts.filter((a) => a.rule === 'protocol_disconnected').map((a) => a.details.protocol),
  );
  const protocols = {} as Record<Protocol, ProtocolView>;
  for (const p of PROTOCOLS) {
    const status = protocolStatus(p, input.evidence, { disconnectAlertOpen: disconnectOpen.has(p) });
    const change = newestPending(input.pending ?? [], p);
    protocols[p] = { ...status, pending: change ? pendingView(change, input.evidence) : null };
  }
  const dmarc = protocols.dmarc.finding === 'absent' ? null : dmarcPolicyOf(protocols.dmarc.record);
  const c = counts(protocols);
  const newest = [...input.evidence].sort(byObservation).at(-1);
  return {
    protocols,
    verdict: verdict(protocols, input.openAlerts, dmarc),
    dmarc,
    counts: c,
    protocolsText: protocolsText(c),
    newest: newest ? evidenceRef(newest) : null,
  };
}
