import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { domainSendersArgs, senderHistoryArgs } from '../../../../shared/bridge/senders.ts';
import { guard, parse } from '../guard.ts';
import { requireDomain } from '../requireDomain.ts';
import type { Wiring } from '../wiring.ts';

/** A domain's sending sources over time, and one sender's history (from the mirror, offline too). */
export function senderMethods(w: Wiring): Pick<BridgeMethods, 'domainSenders' | 'senderHistory'> {
  return {
    domainSenders: (a) =>
      guard(() => {
        const p = parse(domainSendersArgs, a);
        requireDomain(w.mirror, p.accountId, p.domainId);
        return w.mirror.domainSenders(p.accountId, p.domainId);
      }),

    senderHistory: (a) =>
      guard(() => {
        const p = parse(senderHistoryArgs, a);
        requireDomain(w.mirror, p.accountId, p.domainId);
        return w.mirror.senderHistory(p.accountId, p.domainId, p.source);
      }),
  };
}
