import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cacheStatements } from '../../../../service/db/statementCache.ts';
import { openServiceDb } from '../../../../service/db/openServiceDb.ts';

describe('cacheStatements', () => {
  it('prepares a SQL text once and answers every later run with the current rows', () => {
    const db = cacheStatements(new Database(':memory:'));
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    expect(db.prepare('INSERT INTO t (v) VALUES (?)')).toBe(insert);
    insert.run('a');
    db.prepare('INSERT INTO t (v) VALUES (?)').run('b');
    const select = 'SELECT v FROM t WHERE id = ?';
    expect(db.prepare<[number], { v: string }>(select).get(1)).toEqual({ v: 'a' });
    expect(db.prepare<[number], { v: string }>(select).get(2)).toEqual({ v: 'b' });
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
    db.close();
  });

  it('forgets the least recently used text beyond its limit', () => {
    const db = cacheStatements(new Database(':memory:'), 2);
    const one = db.prepare('SELECT 1');
    const two = db.prepare('SELECT 2');
    expect(db.prepare('SELECT 1')).toBe(one); // 1 is now the most recent
    db.prepare('SELECT 3'); // forgets 2
    expect(db.prepare('SELECT 1')).toBe(one);
    expect(db.prepare('SELECT 2')).not.toBe(two);
    db.close();
  });

  it('is what the service opens, and pragmas still answer as before', () => {
    const db = openServiceDb(':memory:');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_keys')).toEqual([{ foreign_keys: 1 }]);
    const sql = 'SELECT count(*) AS n FROM schema_migrations';
    expect(db.prepare(sql)).toBe(db.prepare(sql));
    db.close();
  });
});
