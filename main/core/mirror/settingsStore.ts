import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { DEFAULT_ALERT_SETTINGS, type AlertSettings } from '../alerts/types.ts';
import { MAX_EDIT_SILENCE_MINUTES } from '../../../shared/bridge/args.ts';
import { MirrorError } from './mirrorError.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

const hour = z.number().int().min(0).max(23);

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const alertSettingsSchema = z.object({
  scoreStep: z.number().positive().max(10),
  scoreFloor: z.number().min(0).max(10).nullable(),
  quietHours: z.object({ startHour: hour, endHour: hour }).nullable(),
  timeZone: z.string().refine(isTimeZone, 'not an IANA time zone').nullable(),
  quietHoldsCriticals: z.boolean(),
  editSilenceMinutes: z.number().int().min(0).max(MAX_EDIT_SILENCE_MINUTES),
});

/** The settings key holding the alert settings. */
export const ALERT_SETTINGS_KEY = 'alerts';

/** Key/value settings, values stored as JSON. */
export class SettingsStore {
  constructor(private readonly db: Database) {}

  /** The stored value, or undefined. */
  get(key: string): unknown {
    const row = prepared(this.db, 'SELECT value_json FROM settings WHERE key = ?').get(key) as
      { value_json: string } | undefined;
    return row ? (JSON.parse(row.value_json) as unknown) : undefined;
  }

  /** Store a JSON value; undefined deletes the key. */
  set(key: string, value: unknown, at: string): void {
    if (value === undefined) {
      prepared(this.db, 'DELETE FROM settings WHERE key = ?').run(key);
      return;
    }
    const text = JSON.stringify(value);
    if (text === undefined) throw new MirrorError('invalid_input', `setting ${key} is not JSON-serialisable`);
    prepared(
      this.db,
      `INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
    ).run(key, text, at);
  }

  /** Alert settings over the defaults; a stored value that no longer validates falls back to the defaults. */
  alertSettings(): AlertSettings {
    const stored = this.get(ALERT_SETTINGS_KEY);
    const merged = alertSettingsSchema.safeParse({
      ...DEFAULT_ALERT_SETTINGS,
      ...(stored && typeof stored === 'object' ? stored : {}),
    });
    return merged.success ? merged.data : { ...DEFAULT_ALERT_SETTINGS };
  }

  /** Validate and store a change to the alert settings. */
  setAlertSettings(patch: Partial<AlertSettings>, at: string): AlertSettings {
    const next = alertSettingsSchema.safeParse({ ...this.alertSettings(), ...patch });
    if (!next.success) {
      const issue = next.error.issues[0];
      throw new MirrorError('invalid_input', `alert settings: ${issue?.path.join('.')}: ${issue?.message}`);
    }
    this.set(ALERT_SETTINGS_KEY, next.data, at);
    return next.data;
  }
}
