import { dmarcState, type DmarcState } from '../../../shared/bridge/overviewFilter.ts';
import type { DomainStatusView as DomainStatus } from '../../../shared/bridge/results.ts';
import type { Protocol } from '../signals/primitives.ts';

/** What the overview filters, sorts and counts a domain by, taken from its one status. */
export interface StatusFacts {
  verdictLevel: DomainStatus['verdict']['level'];
  dmarcState: DmarcState;
  dmarcPct: number | null;
  /** The protocols failing (optional protocols not set up are not failing). */
  failing: Protocol[];
  /** Some optional protocol is not set up. */
  notSetUp: boolean;
  requiredPassing: number;
  optionalPassing: number;
}

/** The facts of one status (stored beside it by StatusSummaries.flush; derived for a stale one). */
export function statusFacts(status: DomainStatus): StatusFacts {
  const protocols = Object.values(status.protocols);
  const dmarc = dmarcState(status);
  return {
    verdictLevel: status.verdict.level,
    dmarcState: dmarc.state,
    dmarcPct: dmarc.pct,
    failing: protocols.filter((p) => p.state === 'failing').map((p) => p.protocol),
    notSetUp: protocols.some((p) => p.state === 'not_set_up'),
    requiredPassing: status.counts.requiredPassing,
    optionalPassing: status.counts.optionalPassing,
  };
}
