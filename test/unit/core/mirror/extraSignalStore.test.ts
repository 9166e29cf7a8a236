import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  EXTRA_HISTORY,
  extraValues,
  latestExtraValues,
  storeExtraValue,
} from '../../../../main/core/mirror/extraSignalStore.ts';
import { migrate } from '../../../../main/core/mirror/migrations.ts';

function mirrorWithTwoDomains(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db);
  db.exec(`
    INSERT INTO accounts (id, label, base_url, created_at) VALUES (1, 'Acme', 'https://a.example/api/v1', '2024-01-01T00:00:00.000Z');
    INSERT INTO domains (id, account_id, remote_id, fqdn, first_seen_at, last_seen_at) VALUES
      (10, 1, 100, 'example.com', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'),
      (11, 1, 101, 'example.org', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z');
  `);
  return db;
}

const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`;

describe('extra signal values (one table for every signal without its own)', () => {
  it('gives the newest value of each signal, per domain, with when it was read', () => {
    const db = mirrorWithTwoDomains();
    storeExtraValue(db, 10, 'mta_sts', at(1), { mode: 'enforce' });
    storeExtraValue(db, 10, 'mta_sts', at(2), { mode: 'testing' });
    storeExtraValue(db, 10, 'bimi', at(1), { present: true });
    storeExtraValue(db, 11, 'mta_sts', at(3), { mode: 'none' });
    expect(latestExtraValues(db, 10)).toEqual([
      { signal: 'bimi', fetchedAt: at(1), value: { present: true } },
      { signal: 'mta_sts', fetchedAt: at(2), value: { mode: 'testing' } },
    ]);
    expect(latestExtraValues(db, 11)).toEqual([
      { signal: 'mta_sts', fetchedAt: at(3), value: { mode: 'none' } },
    ]);
  });

  it('keeps only the newest few values of a signal, so the table never grows with time', () => {
    const db = mirrorWithTwoDomains();
    for (let day = 1; day <= EXTRA_HISTORY + 3; day++) storeExtraValue(db, 10, 'mta_sts', at(day), { day });
    storeExtraValue(db, 10, 'bimi', at(1), { present: false });
    const kept = extraValues(db, 10, 'mta_sts');
    expect(kept).toHaveLength(EXTRA_HISTORY);
    expect(kept[0]).toEqual({
      signal: 'mta_sts',
      fetchedAt: at(EXTRA_HISTORY + 3),
      value: { day: EXTRA_HISTORY + 3 },
    });
    expect(kept.at(-1)!.fetchedAt).toBe(at(4));
    // Trimming one signal never touches another's values.
    expect(extraValues(db, 10, 'bimi')).toHaveLength(1);
  });

  it('a read at the same time replaces the value, and a removed domain takes its values with it', () => {
    const db = mirrorWithTwoDomains();
    storeExtraValue(db, 10, 'mta_sts', at(1), { mode: 'enforce' });
    storeExtraValue(db, 10, 'mta_sts', at(1), { mode: 'testing' });
    expect(extraValues(db, 10, 'mta_sts')).toEqual([
      { signal: 'mta_sts', fetchedAt: at(1), value: { mode: 'testing' } },
    ]);
    db.exec('DELETE FROM domains WHERE id = 10');
    expect(latestExtraValues(db, 10)).toEqual([]);
  });
});
