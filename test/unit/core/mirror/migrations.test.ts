import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION, migrate } from '../../../../main/core/mirror/migrations.ts';
import { MirrorError } from '../../../../main/core/mirror/mirrorError.ts';
import { openMirror, openMirrorDatabase } from '../../../../main/core/mirror/openMirror.ts';
import { STATUS_MODEL } from '../../../../main/core/status/statusModel.ts';
import { DOMAIN_ID, fakeClock, health, write } from './payloads.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'authwatch-mirror-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Data as the code of version 1 wrote it: an account, a domain, a health snapshot, an open alert that was
 * delivered, its delivery log, a sync state and a setting. Plain SQL, so the test does not depend on
 * today's code being able to write an old schema.
 */
function fillVersion1(db: Database.Database): void {
  db.exec(`
    INSERT INTO accounts (id, label, base_url, created_at) VALUES (1, 'Acme', 'https://a.example/api/v1', '2024-01-01T00:00:00.000Z');
    INSERT INTO domains (id, account_id, remote_id, fqdn, first_seen_at, last_seen_at)
      VALUES (10, 1, ${DOMAIN_ID}, 'example.com', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z');
    INSERT INTO health_snapshots (domain_id, scanned_at, result, protocols_json, protocols_passing, total_protocols, raw_json, fetched_at)
      VALUES (10, '2024-01-01T00:00:00.000Z', 'Protected',
        '{"dmarc":true,"spf":true,"mta_sts":true,"tls_rpt":true,"bimi":true}', 5, 5, '{}', '2024-01-01T00:01:00.000Z');
    INSERT INTO alerts (id, account_id, domain_id, fqdn, rule, severity, title, body, dedupe_key, first_seen_at, last_seen_at, delivered_at)
      VALUES (5, 1, 10, 'example.com', 'protocol_disconnected', 'critical', 'SPF record of example.com disconnected',
        'gone', 'protocol_disconnected:1:example.com:spf', '2024-01-02T00:00:00.000Z', '2024-01-02T00:00:00.000Z',
        '2024-01-02T00:00:05.000Z');
    INSERT INTO alert_deliveries (alert_id, channel, delivered_at) VALUES (5, 'native', '2024-01-02T00:00:05.000Z');
    INSERT INTO sync_state (account_id, domain_id, signal, last_success_at, period_seconds)
      VALUES (1, 10, 'health', '2024-01-01T00:01:00.000Z', 900);
    INSERT INTO settings (key, value_json, updated_at) VALUES ('alerts', '{"scoreStep":2}', '2024-01-01T00:00:00.000Z');
  `);
}

// Data each version adds on top of the previous one's.
const FILL: Record<number, (db: Database.Database) => void> = {
  1: fillVersion1,
  2: (db) => {
    db.exec(
      `INSERT INTO domain_mutes (domain_id, muted_at, until) VALUES (10, '2024-01-03T00:00:00.000Z', NULL)`,
    );
  },
};

describe('migrations', () => {
  it('are numbered 1..n without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
  });

  const earlier = MIGRATIONS.slice(0, -1).map((m) => m.version);
  it.each(earlier)(
    'a database at version %i opens with the current code, keeps its data and gains the new columns',
    (version) => {
      const file = join(dir, `v${version}.sqlite`);
      const old = new Database(file);
      migrate(old, MIGRATIONS.slice(0, version));
      for (let v = 1; v <= version; v++) FILL[v]?.(old);
      expect(old.pragma('user_version', { simple: true })).toBe(version);
      old.close();

      const clock = fakeClock('2024-02-01T00:00:00Z');
      const mirror = openMirror(file, { clock, status: STATUS_MODEL });
      // Old data survived.
      expect(mirror.listAccounts()).toMatchObject([
        { id: 1, label: 'Acme', baseUrl: 'https://a.example/api/v1' },
      ]);
      expect(mirror.history('health', { accountId: 1, domainId: DOMAIN_ID })).toHaveLength(1);
      expect(mirror.getSyncStates(1)).toMatchObject([
        { signal: 'health', lastSuccessAt: '2024-01-01T00:01:00.000Z' },
      ]);
      expect(mirror.getAlertSettings().scoreStep).toBe(2);
      const alert = mirror.getAlert(5)!;
      expect(alert).toMatchObject({
        title: 'SPF record of example.com disconnected',
        snoozedUntil: null,
        suppressed: null,
      });
      expect(mirror.deliveries(5)).toEqual([
        { alertId: 5, channel: 'native', deliveredAt: '2024-01-02T00:00:05.000Z' },
      ]);
      // The old open episode still dedupes: a new disconnect of the same protocol refreshes it.
      write(mirror, 1, 'health', health('2024-01-31T00:00:00Z', { spf: false }), '2024-01-31T00:01:00Z');
      expect(mirror.listAlerts({ rule: 'protocol_disconnected' })).toHaveLength(1);
      // Columns and tables of later versions work on the migrated data.
      mirror.snoozeAlert(5, '2024-02-01T06:00:00Z');
      expect(mirror.getAlert(5)!.snoozedUntil).toBe('2024-02-01T06:00:00.000Z');
      mirror.unmuteDomain(1, DOMAIN_ID);
      mirror.muteDomain({ accountId: 1, domainId: DOMAIN_ID, until: '2024-03-01T00:00:00Z' });
      expect(mirror.domainDetail(1, DOMAIN_ID)!.muted).toEqual({ until: '2024-03-01T00:00:00.000Z' });
      mirror.close();

      const db = new Database(file, { readonly: true });
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      db.close();
    },
  );

  it('refuses a database written by newer code instead of guessing', () => {
    const file = join(dir, 'future.sqlite');
    const db = new Database(file);
    migrate(db);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openMirror(file)).toThrow(MirrorError);
    expect(() => openMirror(file)).toThrow(/newer/);
  });

  it('a step that fails leaves the database at the last whole version', () => {
    const file = join(dir, 'broken.sqlite');
    const db = new Database(file);
    const broken = [
      ...MIGRATIONS.slice(0, 1),
      {
        version: 2,
        name: 'half done',
        up: (d: Database.Database) => d.exec('CREATE TABLE half (x); SELECT * FROM nowhere;'),
      },
    ];
    expect(() => migrate(db, broken)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half'").get()).toEqual({ n: 0 });
    db.close();
  });
});

describe('connection settings', () => {
  it('a file mirror runs in WAL mode with synchronous=FULL and foreign keys on', () => {
    const db = openMirrorDatabase(join(dir, 'mirror.sqlite'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('an in-memory mirror has synchronous=FULL and foreign keys too', () => {
    const db = openMirrorDatabase(':memory:');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('removing an account removes everything mirrored for it (foreign keys cascade)', () => {
    const file = join(dir, 'cascade.sqlite');
    const mirror = openMirror(file, { clock: fakeClock(), status: STATUS_MODEL });
    const a = mirror.upsertAccount({ label: 'A', baseUrl: 'https://a/api/v1' });
    const b = mirror.upsertAccount({ label: 'B', baseUrl: 'https://b/api/v1' });
    for (const acc of [a, b]) {
      mirror.writeSignal({
        accountId: acc.id,
        domainId: DOMAIN_ID,
        signal: 'health',
        payload: health('2025-03-01T09:00:00Z'),
        fetchedAt: '2025-03-01T09:01:00Z',
      });
      write(mirror, acc.id, 'health', health('2025-03-01T09:15:00Z', { spf: false }), '2025-03-01T09:16:00Z');
    }
    expect(mirror.removeAccount(a.id)).toBe(true);
    expect(mirror.removeAccount(a.id)).toBe(false);
    mirror.close();
    const db = new Database(file, { readonly: true });
    for (const table of ['domains', 'health_snapshots', 'alerts', 'sync_state']) {
      const rows = db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
      // Only account B's rows are left.
      expect(rows.n, table).toBeGreaterThan(0);
    }
    expect(db.prepare('SELECT DISTINCT account_id FROM domains').all()).toEqual([{ account_id: b.id }]);
    expect(db.prepare('SELECT DISTINCT account_id FROM alerts').all()).toEqual([{ account_id: b.id }]);
    db.close();
  });
});
