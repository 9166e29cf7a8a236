// The service database: file databases in WAL with foreign keys, migrations applied once and in order.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openServiceDb } from '../../../service/db/openServiceDb.ts';
import { migrate } from '../../../service/db/migrate.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'authwatch-service-db-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openServiceDb', () => {
  it('opens a file in WAL mode with foreign keys on, and reopens it without re-running migrations', () => {
    const file = join(dir, 'service.sqlite');
    const db = openServiceDb(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.prepare("INSERT INTO teams (name, plan, created_at) VALUES ('T', 'suite', 'now')").run();
    const applied = db.prepare('SELECT name FROM schema_migrations').all();
    db.close();
    const again = openServiceDb(file);
    expect(again.prepare('SELECT name FROM schema_migrations').all()).toEqual(applied);
    expect(again.prepare('SELECT COUNT(*) AS n FROM teams').get()).toEqual({ n: 1 });
    expect(() =>
      again
        .prepare(
          "INSERT INTO users (team_id, name, email, role_id, created_at, updated_at) VALUES (999, 'x', 'x@x', 1, '', '')",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    again.close();
  });

  it('seeds the role catalogue, with Owner, Admin and Editor not assignable', () => {
    const db = openServiceDb(':memory:');
    const roles = db.prepare('SELECT name, assignable FROM roles ORDER BY id').all();
    expect(roles).toEqual([
      { name: 'Owner', assignable: 0 },
      { name: 'Admin', assignable: 0 },
      { name: 'Editor', assignable: 0 },
      { name: 'Viewer', assignable: 1 },
      { name: 'Analyst', assignable: 1 },
      { name: 'Domain Manager', assignable: 1 },
    ]);
    db.close();
  });
});

describe('migrate', () => {
  it('applies files in name order, each once, and a file added later in between', () => {
    const migrations = join(dir, 'migrations');
    mkdirSync(migrations);
    writeFileSync(join(migrations, '001_a.sql'), 'CREATE TABLE a (x INTEGER);');
    writeFileSync(join(migrations, '030_c.sql'), 'CREATE TABLE c (x INTEGER REFERENCES a (x));');
    writeFileSync(join(migrations, 'notes.txt'), 'not a migration');
    const db = new Database(':memory:');
    expect(migrate(db, migrations)).toEqual(['001_a.sql', '030_c.sql']);
    expect(migrate(db, migrations)).toEqual([]);
    writeFileSync(join(migrations, '020_b.sql'), 'CREATE TABLE b (x INTEGER);');
    expect(migrate(db, migrations)).toEqual(['020_b.sql']);
    db.close();
  });

  it('rolls back a failing migration entirely', () => {
    const migrations = join(dir, 'migrations');
    mkdirSync(migrations);
    writeFileSync(
      join(migrations, '001_bad.sql'),
      'CREATE TABLE ok (x INTEGER); CREATE TABLE ok (x INTEGER);',
    );
    const db = new Database(':memory:');
    expect(() => migrate(db, migrations)).toThrow(/already exists/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'ok'").all()).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({ n: 0 });
    db.close();
  });
});
