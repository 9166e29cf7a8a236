import type { Database } from 'better-sqlite3';
import type { SilenceNote } from './deliveryTypes.ts';
import { routeAlert, routeChannelIds, type Route } from './routing.ts';
import type { Channel } from './deliveryTypes.ts';
import { ANNOUNCING, insertOutbox, toldChannels } from './outboxRows.ts';
import type { SilenceStore } from './silenceStore.ts';
import type { Alert } from './types.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/** What the sweep needs of the mirror. */
export interface SilenceNoticeDeps {
  db: Database;
  silences: SilenceStore;
  routes: () => Route[];
  channels: () => Channel[];
  alert: (id: number) => Alert | null;
}

/**
 * `alert.silenced` / `alert.unsilenced` for routes that ask for them: when a silence or an open maintenance
 * window starts holding an open alert its channels were told of, they hear so (with who, why and until
 * when); when it stops while the alert is still open, the same channels hear that, once. What was said is
 * kept in the mirror (silence_notices), so a restart says nothing twice. The open alerts are read only when
 * what holds alerts changed (a window opening or closing, a silence ending, anything audited) or the table
 * did: a look at rest reads two small queries.
 */
export class SilenceNotices {
  private seen: string | null = null;

  constructor(private readonly d: SilenceNoticeDeps) {}

  /** One transaction; returns the outbox rows queued. */
  sweep(now: string): number {
    const { db, silences } = this.d;
    const routes = this.d.routes();
    const tracked = (
      prepared(db, 'SELECT alert_id, channel_ids_json FROM silence_notices').all() as {
        alert_id: number;
        channel_ids_json: string;
      }[]
    ).map((r) => ({ id: r.alert_id, channels: JSON.parse(r.channel_ids_json) as number[] }));
    if (tracked.length === 0 && !routes.some((r) => r.silenceEvents)) return 0;
    const active = silences.activeAt(now);
    const audit = (
      prepared(db, 'SELECT coalesce(max(id), 0) AS v FROM lifecycle_audit').get() as { v: number }
    ).v;
    const key = JSON.stringify([audit, active.map((h) => [h.kind, h.id, h.endsAt]), routes]);
    if (key === this.seen) return 0;
    const queued = db.transaction(() => {
      const channels = this.d.channels();
      const known = new Map(tracked.map((t) => [t.id, t.channels]));
      const open = (
        prepared(
          db,
          `SELECT DISTINCT o.alert_id AS id FROM outbox o JOIN alerts a ON a.id = o.alert_id
             WHERE a.resolved_at IS NULL AND o.type IN ${ANNOUNCING}`,
        ).all() as { id: number }[]
      ).map((r) => r.id);
      const forget = prepared(db, 'DELETE FROM silence_notices WHERE alert_id = ?');
      const remember = prepared(
        db,
        'INSERT INTO silence_notices (alert_id, channel_ids_json, hold_json, at) VALUES (?, ?, ?, ?)',
      );
      let count = 0;
      const stillOpen = new Set<number>();
      for (const id of open) {
        const alert = this.d.alert(id);
        if (!alert) continue;
        stillOpen.add(id);
        const hold = active.length > 0 ? silences.silencing(alert, now, active) : null;
        const said = known.get(id);
        if (hold && !said) {
          const asked = routeAlert(routes, silences.factsOf(alert), channels)
            .routes.filter((r) => r.silenceEvents)
            .flatMap((r) => routeChannelIds(r, routes, channels));
          const told = toldChannels(db, id).filter((c) => asked.includes(c));
          if (told.length === 0) continue;
          const note: SilenceNote = { by: hold.author, reason: hold.label, until: hold.endsAt };
          remember.run(id, JSON.stringify(told), JSON.stringify(note), now);
          count += insertOutbox(db, id, 'alert.silenced', told, now);
        } else if (!hold && said) {
          forget.run(id);
          const live = new Set(channels.map((c) => c.id));
          count += insertOutbox(
            db,
            id,
            'alert.unsilenced',
            said.filter((c) => live.has(c)),
            now,
          );
        }
      }
      // Alerts that ended while silenced: their "resolved" says the rest.
      for (const t of tracked) if (!stillOpen.has(t.id)) forget.run(t.id);
      return count;
    })();
    this.seen = key;
    return queued;
  }
}

/** The silence an alert.silenced row announces (null once its silence ended and was said so). */
export function silenceNoteOf(db: Database, alertId: number): SilenceNote | undefined {
  const row = prepared(db, 'SELECT hold_json FROM silence_notices WHERE alert_id = ?').get(alertId) as
    { hold_json: string } | undefined;
  return row ? (JSON.parse(row.hold_json) as SilenceNote) : undefined;
}
