import type { Database } from 'better-sqlite3';
import type { AlertMatchers } from '../alerts/matchers.ts';
import { DEFAULT_ROUTE, type Route, type RouteInput } from './routing.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

interface RouteRow {
  id: number;
  position: number;
  name: string;
  matchers_json: string;
  channel_ids_json: string | null;
  continue: number;
  is_default: number;
  group_wait_seconds: number | null;
  silence_events: number;
  repeat_minutes: number | null;
  escalate_after_minutes: number | null;
  escalate_to_json: string;
}

function toRoute(r: RouteRow): Route {
  return {
    id: r.id,
    name: r.name,
    matchers: JSON.parse(r.matchers_json) as AlertMatchers,
    channelIds: r.channel_ids_json === null ? null : (JSON.parse(r.channel_ids_json) as number[]),
    continue: r.continue === 1,
    isDefault: r.is_default === 1,
    groupWaitSeconds: r.group_wait_seconds,
    silenceEvents: r.silence_events === 1,
    repeatMinutes: r.repeat_minutes,
    escalateAfterMinutes: r.escalate_after_minutes,
    escalateTo: JSON.parse(r.escalate_to_json) as number[],
  };
}

/** The ordered routing table in the mirror (migration v18); the default route always last. */
export class RouteStore {
  private cache: Route[] | null = null;
  private cachedVersion = -1;

  constructor(private readonly db: Database) {}

  /** The table in order. Read on every alert write: kept until another write (any process) changes it. */
  list(): Route[] {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (this.cache && version === this.cachedVersion) return this.cache;
    const rows = prepared(
      this.db,
      'SELECT * FROM routes ORDER BY is_default, position, id',
    ).all() as RouteRow[];
    const routes = rows.map(toRoute);
    if (!routes.some((r) => r.isDefault)) routes.push({ id: 0, ...DEFAULT_ROUTE });
    this.cache = routes;
    this.cachedVersion = version;
    return routes;
  }

  /**
   * Replaces the whole table (the order given; one default route, last). A route given with the id of a
   * stored one is that route, edited in place: what it already escalated or repeated stays sent. The default
   * route keeps its id without one; other routes without an id (or with an unknown one) are new.
   */
  replace(routes: RouteInput[]): Route[] {
    const columns = `position = ?, name = ?, matchers_json = ?, channel_ids_json = ?, continue = ?, is_default = ?,
      group_wait_seconds = ?, silence_events = ?, repeat_minutes = ?, escalate_after_minutes = ?, escalate_to_json = ?`;
    const update = prepared(this.db, `UPDATE routes SET ${columns} WHERE id = ?`);
    const insert = prepared(this.db, `INSERT INTO routes (position, name) VALUES (0, '')`);
    this.db.transaction(() => {
      const stored = prepared(this.db, 'SELECT id, is_default FROM routes').all() as {
        id: number;
        is_default: number;
      }[];
      const known = new Set(stored.map((r) => r.id));
      const storedDefault = stored.find((r) => r.is_default === 1)?.id;
      const kept = new Set<number>();
      routes.forEach((r, i) => {
        let id = r.id ?? (r.isDefault ? storedDefault : undefined);
        if (id === undefined || !known.has(id) || kept.has(id)) id = Number(insert.run().lastInsertRowid);
        kept.add(id);
        update.run(
          r.isDefault ? 1_000_000 : i + 1,
          r.name,
          JSON.stringify(r.isDefault ? {} : r.matchers),
          r.channelIds === null ? null : JSON.stringify(r.channelIds),
          r.continue ? 1 : 0,
          r.isDefault ? 1 : 0,
          r.groupWaitSeconds,
          r.silenceEvents ? 1 : 0,
          r.repeatMinutes,
          r.escalateAfterMinutes,
          JSON.stringify(r.escalateTo),
          id,
        );
      });
      const drop = prepared(this.db, 'DELETE FROM routes WHERE id = ?');
      for (const id of known) if (!kept.has(id)) drop.run(id);
    })();
    this.cache = null;
    return this.list();
  }
}
