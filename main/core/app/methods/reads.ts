import * as args from '../../../../shared/bridge/args.ts';
import { overviewPageArgs } from '../../../../shared/bridge/overviewPage.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import type { SignalName } from '../../signals/catalog.ts';
import { CORE_SIGNALS, HISTORY_SIGNALS, ON_DEMAND_SIGNALS } from '../../sync/syncJobs.ts';
import { guard, parse } from '../guard.ts';
import { requireDomain } from '../requireDomain.ts';
import type { Wiring } from '../wiring.ts';

/** Opening a domain refetches its panels older than this. */
const OPEN_REFRESH_MS = 15 * 60_000;

/** Reads of the mirror: the overview, one domain, its history; opening a domain refreshes it. */
export function readMethods(
  w: Wiring,
): Pick<BridgeMethods, 'overview' | 'overviewPage' | 'domainDetail' | 'history' | 'openDomain'> {
  return {
    overview: (a) =>
      guard(() => {
        const p = parse(args.accountScope, a);
        return w.mirror.windowOverview(p?.accountId);
      }),

    overviewPage: (a) =>
      guard(() => {
        // An account no longer listed has no rows, as in the full overview (the window may ask before it knows).
        return w.mirror.overviewPage(parse(overviewPageArgs, a));
      }),

    domainDetail: (a) =>
      guard(() => {
        const p = parse(args.domainRef, a);
        return w.mirror.domainDetail(p.accountId, p.domainId);
      }),

    history: (a) =>
      guard(() => {
        const { kind, ...query } = parse(args.historyArgs, a);
        return w.mirror.history(kind, query) as never;
      }),

    openDomain: (a) =>
      guard(() => {
        const p = parse(args.domainRef, a);
        const account = w.accounts.get(p.accountId);
        const detail = requireDomain(w.mirror, p.accountId, p.domainId);
        const panels: SignalName[] = [...ON_DEMAND_SIGNALS, ...HISTORY_SIGNALS, ...CORE_SIGNALS];
        w.track(
          w.engine
            .refresh(account, p.domainId, panels, { staleAfterMs: OPEN_REFRESH_MS })
            .then(() => w.deliver()),
        );
        return detail;
      }),
  };
}
