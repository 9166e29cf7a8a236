/**
 * What the query-plan tests share: a mirror whose connection records every SQL statement it prepares, and
 * values for a statement's parameters so `EXPLAIN QUERY PLAN` can run it.
 */
import { DEFAULT_RULES } from '../../../../main/core/livechecks/ruleRegistry.ts';
import { MIRROR_REGISTRY } from '../../../../main/core/runtime/registry.ts';
import { openMirrorDatabase } from '../../../../main/core/mirror/openMirror.ts';
import { SqliteMirror } from '../../../../main/core/mirror/sqliteMirror.ts';
import { fakeClock } from './payloads.ts';

/** Values for a statement's parameters, positional or named (the plan does not depend on them). */
export function bindings(sql: string, value: number): unknown[] {
  const named = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!))];
  if (named.length > 0) return [Object.fromEntries(named.map((name) => [name, value]))];
  return Array<number>((sql.match(/\?/g) ?? []).length).fill(value);
}

/** A mirror on an in-memory database whose connection records the SQL it prepares (in `seen`). */
export function recordingMirror() {
  const db = openMirrorDatabase(':memory:');
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    seen.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  const clock = fakeClock('2025-03-01T10:00:00Z');
  const mirror = new SqliteMirror(db, clock, MIRROR_REGISTRY, DEFAULT_RULES);
  return { db, mirror, seen, clock, prepare };
}
