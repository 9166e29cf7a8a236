import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../../support/openMirror.ts';
import { MIGRATIONS, migrate } from '../../../../main/core/mirror/migrations.ts';
import { fakeClock } from './payloads.ts';

const dir = mkdtempSync(join(tmpdir(), 'authwatch-silence-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('upgrading a mirror to silences (v16)', () => {
  it('keeps its alerts, starts with no silence and no hold, and takes silences that survive reopening', () => {
    const file = join(dir, 'v15.sqlite');
    const old = new Database(file);
    migrate(
      old,
      MIGRATIONS.filter((m) => m.version <= 15),
    );
    old.exec(`
      INSERT INTO accounts (id, label, base_url, created_at) VALUES (1, 'Acme', 'https://a.example/api/v1', '2024-01-01T00:00:00.000Z');
      INSERT INTO domains (id, account_id, remote_id, fqdn, raw_json, first_seen_at, last_seen_at)
        VALUES (1, 1, 7, 'acme.example', '{"group_name":"Regional"}', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z');
      INSERT INTO alerts (id, account_id, domain_id, fqdn, rule, severity, title, body, dedupe_key, first_seen_at, last_seen_at)
        VALUES (1, 1, 1, 'acme.example', 'protocol_disconnected', 'critical', 'SPF', 'b', 'k:1', '2024-01-02T00:00:00.000Z', '2024-01-02T00:00:00.000Z');
    `);
    old.close();

    const clock = fakeClock('2024-01-03T00:00:00Z');
    let mirror = openMirror(file, { clock });
    expect(mirror.getAlert(1)).toMatchObject({ fqdn: 'acme.example', resolvedAt: null });
    expect(mirror.silences.list()).toEqual([]);
    expect(mirror.silences.isHeld(1)).toBe(false);
    const s = mirror.silences.add(
      {
        matchers: { group: 'Regional' },
        reason: 'r',
        startsAt: '2024-01-03T00:00:00Z',
        endsAt: '2024-01-03T02:00:00Z',
      },
      'ops',
      '2024-01-03T00:00:00.000Z',
    );
    mirror.close();
    mirror = openMirror(file, { clock });
    expect(mirror.silences.get(s.id)).toMatchObject({ reason: 'r', author: 'ops' });
    expect(mirror.silences.silencing(mirror.getAlert(1)!, '2024-01-03T01:00:00.000Z')).toMatchObject({
      id: s.id,
    });
    mirror.close();
  });
});
