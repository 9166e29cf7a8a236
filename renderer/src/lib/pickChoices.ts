/** Reads the lists an edit form picks from: the mirror's domains, or the service's panels, by field name. */
import type { BridgeApi } from '../../../shared/bridge/contract.ts';
import type { OverviewRow } from '../../../shared/bridge/results.ts';
import type { PickOption } from '../kit/types.ts';
import { pickOptions } from './accountLists.ts';
import { pickerOf } from './editPickers.ts';

/**
 * Calls `found(name, options)` for each of `names` that is picked from a list, as its list arrives (domains
 * at once from the mirror's rows, panels when they answer; a panel that fails leaves its list empty).
 */
export function loadChoices(
  api: Pick<BridgeApi, 'readPanel'>,
  names: readonly string[],
  where: { accountId: number; domainId?: number; rows: readonly OverviewRow[] },
  found: (name: string, options: PickOption[]) => void,
): void {
  for (const name of names) {
    const source = pickerOf(name);
    if (!source) continue;
    if (source.from === 'domains') {
      found(
        name,
        where.rows
          .filter((r) => r.accountId === where.accountId)
          .map((r) => ({ value: String(r.domainId), label: r.fqdn }))
          .sort((a, b) => a.label.localeCompare(b.label)),
      );
      continue;
    }
    if (source.domainScoped && where.domainId === undefined) continue;
    void api
      .readPanel({
        panel: source.from,
        accountId: where.accountId,
        ...(source.domainScoped ? { domainId: where.domainId } : {}),
      })
      .then((r) => found(name, pickOptions(name, r.data)))
      .catch(() => undefined);
  }
}
