import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { toCsv } from '../../export/csv.ts';
import { ALERT_EXPORT_COLUMNS, alertJson, EXPORT_COLUMNS, exportRecord } from '../../export/records.ts';
import { guard, parse } from '../guard.ts';
import type { Wiring } from '../wiring.ts';

/** The overview or the alerts as CSV or JSON, the same records `authwatch export` and `alerts --json` write. */
export function exportMethods(w: Wiring): Pick<BridgeMethods, 'exportData'> {
  const { mirror, clock } = w;
  return {
    exportData: (a) =>
      guard(() => {
        const p = parse(args.exportArgs, a);
        const labels = new Map(mirror.listAccounts().map((acc) => [acc.id, acc.label]));
        const records =
          p.what === 'overview'
            ? mirror.overview(p.accountId).map(exportRecord)
            : mirror
                .listAlerts({ ...(p.accountId ? { accountId: p.accountId } : {}), limit: 'all' })
                .map((alert) => alertJson(alert, labels.get(alert.accountId) ?? ''));
        const columns = p.what === 'overview' ? EXPORT_COLUMNS : ALERT_EXPORT_COLUMNS;
        const stamp = new Date(clock.now()).toISOString().slice(0, 10);
        return {
          filename: `authwatch-${p.what}-${stamp}.${p.format}`,
          mimeType: p.format === 'csv' ? 'text/csv' : 'application/json',
          content:
            p.format === 'csv'
              ? toCsv(columns, records as Record<string, unknown>[])
              : JSON.stringify(records, null, 2) + '\n',
          rows: records.length,
        };
      }),
  };
}
