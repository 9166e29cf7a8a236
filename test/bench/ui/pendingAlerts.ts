/**
 * The bench portfolio's alerts as a user meets them after a long time away: none shown yet. The seeded
 * mirror marks its alerts delivered (a window was open when they were raised); this returns them to pending
 * in a copy, as if no window had been open since, so the host delivers all of them when the page connects.
 * Raw SQL on the bench's own copy: the mirror has no "undeliver" (the app never needs one).
 */
import Database from 'better-sqlite3';

/** Leaves every alert of the mirror file `db` pending delivery; returns how many there are. */
export function leaveAlertsPending(db: string): number {
  const sqlite = new Database(db);
  try {
    return sqlite.transaction(() => {
      sqlite.prepare('DELETE FROM alert_deliveries').run();
      return sqlite.prepare('UPDATE alerts SET delivered_at = NULL').run().changes;
    })();
  } finally {
    sqlite.close();
  }
}
