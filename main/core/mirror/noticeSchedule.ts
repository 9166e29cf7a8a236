import type { Database } from 'better-sqlite3';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/**
 * The escalation sweep's memory, in the sweeping process, of when each open alert can next owe an escalation
 * or a reminder, so a look while nothing is due reads no alert (at 5,000 open alerts a full look cost
 * ~360 ms every 5 s). Forgotten whenever the lifecycle changed — the routing table, a silence or window added,
 * edited or ended early, an acknowledgement taken back: each is audited, so the audit's newest id says so
 * whichever process made it.
 */
export class NoticeSchedule {
  private readonly next = new Map<number, number>();
  private seen = -1;
  private table: readonly unknown[] | null = null;

  constructor(private readonly db: Database) {}

  /**
   * Of the candidates (ids of open alerts), those to look at now: never looked at, or due by `now`. `routes`
   * is the routing table as the route store lists it: a new list (a save, another process's write) means
   * the table may have changed.
   */
  due(candidates: readonly number[], now: number, routes: readonly unknown[]): number[] {
    const audit = (
      prepared(this.db, 'SELECT coalesce(max(id), 0) AS v FROM lifecycle_audit').get() as { v: number }
    ).v;
    if (audit !== this.seen || routes !== this.table) {
      this.next.clear();
      this.seen = audit;
      this.table = routes;
    }
    // Alerts that closed are never candidates again: drop their entries once they outnumber the open ones.
    if (this.next.size > 2 * candidates.length + 1_000) {
      const open = new Set(candidates);
      for (const id of this.next.keys()) if (!open.has(id)) this.next.delete(id);
    }
    return candidates.filter((id) => (this.next.get(id) ?? -Infinity) <= now);
  }

  /** The alert needs no look before `at` (epoch ms; Infinity: not while the lifecycle stays as it is). */
  set(alertId: number, at: number): void {
    this.next.set(alertId, at);
  }
}
