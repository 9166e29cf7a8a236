import { auditChangesArgs, type AuditChangeInfo } from '../../../../shared/bridge/auditChanges.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { observedChanges, protocolOfPath } from '../editChanges.ts';
import { guard, parse } from '../guard.ts';
import type { Wiring } from '../wiring.ts';

/** The audit log's before → after, from the mirror (offline too): the change journal, else the record seen. */
export function auditMethods(w: Wiring): Pick<BridgeMethods, 'auditChanges'> {
  return {
    auditChanges: (a) =>
      guard(() => {
        const p = parse(auditChangesArgs, a);
        w.accounts.get(p.accountId);
        const journal = new Map(
          w.mirror
            .journalEntries(p.accountId, p.entries.map((e) => e.requestId).filter(Boolean))
            .map((e) => [e.requestId, e]),
        );
        const found: AuditChangeInfo[] = [];
        for (const entry of p.entries) {
          const kept = journal.get(entry.requestId);
          if (kept) {
            found.push({ requestId: entry.requestId, source: 'journal', changes: kept.changes });
            continue;
          }
          // Only a write that went through can have changed the record.
          const done = entry.statusCode !== null && entry.statusCode >= 200 && entry.statusCode < 300;
          const protocol = protocolOfPath(entry.path);
          const domainId = /\/domains\/(\d+)\//.exec(entry.path)?.[1];
          if (!done || entry.method === 'GET' || !protocol || !domainId || !entry.at) continue;
          const seen = w.mirror.recordObservations(p.accountId, Number(domainId), protocol);
          const changes = observedChanges(protocol, seen, entry.at);
          if (changes.length > 0) found.push({ requestId: entry.requestId, source: 'observed', changes });
        }
        return found;
      }),
  };
}
