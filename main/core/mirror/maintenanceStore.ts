import type { Database } from 'better-sqlite3';
import type { AlertMatchers } from '../alerts/matchers.ts';
import { windowOpenUntil, type MaintenanceWindow } from '../alerts/maintenanceWindows.ts';
import type { ActiveHold } from './silenceStore.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

interface WindowRow {
  id: number;
  name: string;
  matchers_json: string;
  weekdays_json: string;
  hour: number;
  minute: number;
  duration_minutes: number;
  time_zone: string;
  author: string;
  created_at: string;
}

function toWindow(r: WindowRow): MaintenanceWindow {
  return {
    id: r.id,
    name: r.name,
    matchers: JSON.parse(r.matchers_json) as AlertMatchers,
    weekdays: JSON.parse(r.weekdays_json) as number[],
    hour: r.hour,
    minute: r.minute,
    durationMinutes: r.duration_minutes,
    timeZone: r.time_zone,
    author: r.author,
    createdAt: r.created_at,
  };
}

/** Recurring maintenance windows (migration v20); open ones hold alerts as silences do. */
export class MaintenanceStore {
  constructor(private readonly db: Database) {}

  list(): MaintenanceWindow[] {
    return (
      prepared(this.db, 'SELECT * FROM maintenance_windows ORDER BY name, id').all() as WindowRow[]
    ).map(toWindow);
  }

  add(w: Omit<MaintenanceWindow, 'id'>): MaintenanceWindow {
    const id = prepared(
      this.db,
      `INSERT INTO maintenance_windows (name, matchers_json, weekdays_json, hour, minute, duration_minutes,
         time_zone, author, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      w.name,
      JSON.stringify(w.matchers),
      JSON.stringify(w.weekdays),
      w.hour,
      w.minute,
      w.durationMinutes,
      w.timeZone,
      w.author,
      w.createdAt,
    ).lastInsertRowid;
    return this.list().find((x) => x.id === Number(id))!;
  }

  remove(id: number): boolean {
    return prepared(this.db, 'DELETE FROM maintenance_windows WHERE id = ?').run(id).changes > 0;
  }

  /** The windows open at `now`, as holds. */
  openAt(now: string): ActiveHold[] {
    const at = Date.parse(now);
    return this.list().flatMap((w) => {
      const until = windowOpenUntil(w, at);
      return until === null
        ? []
        : [
            {
              kind: 'maintenance' as const,
              id: w.id,
              label: w.name,
              author: w.author,
              matchers: w.matchers,
              endsAt: new Date(until).toISOString(),
            },
          ];
    });
  }
}
