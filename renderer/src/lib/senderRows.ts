import type { SenderPoll, SenderSummary } from '../../../shared/bridge/senders.ts';
import type { StoredSource } from '../../../shared/bridge/storedAnswers.ts';

/** A sending source as the interface gives it (sending-services and failed-sources entries, as kept). */
export type Source = StoredSource;

/** One row of the senders table: a sender now, and its polls when the mirror keeps them. */
export type SenderRow = Omit<SenderSummary, 'trend'> & { trend: SenderPoll[] | null };

/**
 * The one table from the two answers of a chosen window (no trend: polls are kept for the engine's
 * window): every sender once, threats first, then failing ones, then by volume.
 */
export function mergeSources(services: readonly Source[], failed: readonly Source[]): SenderRow[] {
  const rows = new Map<string, SenderRow>();
  const failedNames = new Set(failed.map((s) => s.source_name));
  for (const s of [...services, ...failed]) {
    // A sender the answer does not name cannot be told apart from another: it is not listed.
    const name = s.source_name;
    if (!name) continue;
    const there = rows.get(name);
    if (there) {
      there.threat ||= s.is_registered_threat === true;
      continue;
    }
    rows.set(name, {
      name,
      // Failed-sources lists any sender with a failed message; the status says whether it is failing.
      failing:
        s.status === 'failing' || s.status === 'partial' || (s.status === undefined && failedNames.has(name)),
      threat: s.is_registered_threat === true,
      status: s.status ?? null,
      total: s.total_count ?? null,
      dmarcPass: s.dmarc?.pass ?? null,
      dmarcFail: s.dmarc?.fail ?? null,
      compliance: s.compliance ?? null,
      trend: null,
    });
  }
  return [...rows.values()].sort(
    (a, b) =>
      Number(b.threat) - Number(a.threat) ||
      Number(b.failing) - Number(a.failing) ||
      (b.total ?? 0) - (a.total ?? 0) ||
      a.name.localeCompare(b.name),
  );
}
