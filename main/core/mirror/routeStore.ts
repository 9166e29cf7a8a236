import type { Database } from 'better-sqlite3';
import type { AlertMatchers } from '../alerts/matchers.ts';
import { DEFAULT_ROUTE, type Route } from '../delivery/routing.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

interface RouteRow {
  id: number;
  position: number;
  name: string;
  matchers_json: string;
  channel_ids_json: string | null;
  continue: number;
  is_default: number;
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

  /** Replaces the whole table (the order given; one default route, last). */
  replace(routes: Omit<Route, 'id'>[]): Route[] {
    const insert = prepared(
      this.db,
      `INSERT INTO routes (position, name, matchers_json, channel_ids_json, continue, is_default, repeat_minutes,
         escalate_after_minutes, escalate_to_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      prepared(this.db, 'DELETE FROM routes').run();
      routes.forEach((r, i) =>
        insert.run(
          r.isDefault ? 1_000_000 : i + 1,
          r.name,
          JSON.stringify(r.isDefault ? {} : r.matchers),
          r.channelIds === null ? null : JSON.stringify(r.channelIds),
          r.continue ? 1 : 0,
          r.isDefault ? 1 : 0,
          r.repeatMinutes,
          r.escalateAfterMinutes,
          JSON.stringify(r.escalateTo),
        ),
      );
    })();
    this.cache = null;
    return this.list();
  }
}
