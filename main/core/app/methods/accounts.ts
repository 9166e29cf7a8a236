import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { guard, parse } from '../guard.ts';
import type { Wiring } from '../wiring.ts';

type AccountMethods = Pick<
  BridgeMethods,
  'listAccounts' | 'addAccount' | 'testAccount' | 'updateAccount' | 'removeAccount'
>;

/** Accounts: profiles in the mirror, tokens in the SecretStore, every token checked with /auth/me. */
export function accountMethods(w: Wiring): AccountMethods {
  const { accounts } = w;
  return {
    listAccounts: () => guard(() => accounts.list()),

    addAccount: (a) =>
      guard(async () => {
        const added = await accounts.add(parse(args.addAccountArgs, a));
        w.emit({ type: 'accounts_changed' });
        return added;
      }),

    testAccount: (a) => guard(() => accounts.test(parse(args.accountRef, a).accountId)),

    updateAccount: (a) =>
      guard(async () => {
        const p = parse(args.updateAccountArgs, a);
        const updated = await accounts.update(p);
        w.resetAccount(p.accountId);
        w.emit({ type: 'accounts_changed' });
        return updated;
      }),

    removeAccount: (a) =>
      guard(async () => {
        const p = parse(args.accountRef, a);
        const removed = await accounts.remove(p.accountId);
        w.resetAccount(p.accountId);
        w.emit({ type: 'accounts_changed' });
        return removed;
      }),
  };
}
