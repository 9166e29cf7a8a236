import type { DomainStatusView, ProtocolView } from '../../../shared/bridge/results.ts';
import { PROTOCOLS, type Protocol } from '../signals/primitives.ts';
import { byObservation, evidenceRef, type ProtocolEvidence } from './evidence.ts';
import { dmarcPolicyOf } from '../../../shared/email-auth/dmarcPolicy.ts';
import { pendingView, type PendingChange } from './pending.ts';
import { protocolStatus, type ProtocolStatus } from './protocolStatus.ts';
import { verdict, type VerdictAlert } from './verdict.ts';
import type { AlertCatalogue } from '../alerts/ruleSet.ts';

/** Everything the status of one domain is derived from. */
export interface DomainStatusInput {
  /** Every observation of the domain's protocols, from any source, in any order. */
  evidence: readonly ProtocolEvidence[];
  /** The domain's open alerts (acknowledged and resolved ones are not open). */
  openAlerts: readonly VerdictAlert[];
  /** Successful writes not yet confirmed, any order (the newest per protocol counts). */
  pending?: readonly PendingChange[];
}

/** Counts behind the protocols line ("2 of 2 required pass · 1 of 3 optional set up"). */
export type ProtocolCounts = DomainStatus['counts'];

/** One domain's status as every surface shows it (the bridge's schema of it is the one definition). */
export type DomainStatus = DomainStatusView;

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

/**
 * The version of what domainStatus() derives from the same inputs. The mirror keeps each domain's status
 * (main/core/mirror/statusSummary.ts) and derives again every status stored by another version: raise it
 * whenever a change here, in protocolStatus, verdict, pending or the words they use would show a stored
 * status differently.
 */
export const STATUS_MODEL_VERSION = 1;

/**
 * The one status of a domain: per protocol from the newest evidence, the verdict from those and the alerts,
 * said in the words of `catalogue` (the whole rule registry's, passed in: livechecks/ruleRegistry.ts).
 */
export function domainStatus(input: DomainStatusInput, catalogue: AlertCatalogue): DomainStatus {
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
    verdict: verdict(protocols, input.openAlerts, dmarc, catalogue),
    dmarc,
    counts: c,
    protocolsText: protocolsText(c),
    newest: newest ? evidenceRef(newest) : null,
  };
}
