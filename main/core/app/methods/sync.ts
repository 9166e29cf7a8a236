import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { guard, parse } from '../guard.ts';
import type { Wiring } from '../wiring.ts';
import { dnsUnavailable } from './dnsWatch.ts';

/** Sync now, the sync's status in words and figures, and whether each account's service answers. */
export function syncMethods(w: Wiring): Pick<BridgeMethods, 'syncNow' | 'syncStatus' | 'connectivity'> {
  const { mirror, engine } = w;
  return {
    syncNow: (a) =>
      guard(async () => {
        const p = parse(args.accountScope, a);
        if (p?.accountId !== undefined) w.accounts.get(p.accountId);
        const results = await engine.syncNow(p?.accountId);
        await w.deliver();
        return results;
      }),

    syncStatus: () =>
      guard(() => {
        const byId = new Map(mirror.listAccounts().map((acc) => [acc.id, acc]));
        return {
          running: engine.running,
          accounts: engine.status().map((status) => ({
            ...status,
            label: byId.get(status.accountId)?.label ?? '',
            baseUrl: byId.get(status.accountId)?.baseUrl ?? '',
          })),
          dnsUnavailable: dnsUnavailable(mirror),
        };
      }),

    connectivity: () => guard(() => mirror.listAccounts().map((acc) => w.connectivity.get(acc.id))),
  };
}
