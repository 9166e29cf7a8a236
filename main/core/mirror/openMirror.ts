import Database, { type Database as DatabaseConnection } from 'better-sqlite3';
import { DEFAULT_RULES, type AlertRules } from '../alerts/ruleSet.ts';
import { migrate } from './migrations.ts';
import { preparePrivateDatabaseFile } from './privateFiles.ts';
import { SqliteMirror } from './sqliteMirror.ts';
import type { StatusModel } from './statusSummary.ts';
import type { Mirror, MirrorClock } from './types.ts';

/** Options of openMirror. */
export interface OpenMirrorOptions {
  /** Source of "now" (default: the wall clock). */
  clock?: MirrorClock;
  /** Replace some alert rules (tests). */
  rules?: AlertRules;
  /**
   * The status model (main/core/status's STATUS_MODEL) the mirror keeps each domain's status by. Without it
   * the mirror stores and queries all else, and reading a status (overview, domain detail, a pending change)
   * throws saying so; the runtime always passes it.
   */
  status?: StatusModel;
}

const wallClock: MirrorClock = { now: () => Date.now() };

/**
 * Open (creating if needed, readable by the user only), configure and migrate the mirror's database. Files
 * get WAL (readers never block the poller's writes); every database gets synchronous=FULL (a committed
 * alert survives power loss) and enforced foreign keys (removing an account removes its mirror).
 */
export function openMirrorDatabase(file: string): DatabaseConnection {
  const onDisk = file !== ':memory:' && file !== '';
  if (onDisk) preparePrivateDatabaseFile(file);
  const db = new Database(file);
  try {
    if (onDisk) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // The CLI and the app may share the file; wait for the other writer instead of failing at once.
    db.pragma('busy_timeout = 5000');
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** Open the mirror on a file (or ':memory:'). Throws MirrorError('newer_schema') for a database of newer code. */
export function openMirror(file: string, options: OpenMirrorOptions = {}): Mirror {
  const db = openMirrorDatabase(file);
  return new SqliteMirror(
    db,
    options.clock ?? wallClock,
    { ...DEFAULT_RULES, ...options.rules },
    options.status,
  );
}
