import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../../support/openMirror.ts';
import { MIGRATIONS, migrate } from '../../../../main/core/mirror/migrations.ts';

const dir = mkdtempSync(join(tmpdir(), 'authwatch-end-reason-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REMOVED_AT = '2024-01-10T00:00:00.000Z';

describe('upgrading a mirror to alert end reasons', () => {
  it('reopens alerts the old code closed when their domain left the list, and labels the others', () => {
    const file = join(dir, 'v3.sqlite');
    const old = new Database(file);
    migrate(
      old,
      MIGRATIONS.filter((m) => m.version <= 3),
    );
    old.exec(`
      INSERT INTO accounts (id, label, base_url, created_at) VALUES (1, 'Acme', 'https://a.example/api/v1', '2024-01-01T00:00:00.000Z');
      INSERT INTO domains (id, account_id, remote_id, fqdn, first_seen_at, last_seen_at, removed_at)
        VALUES (1, 1, 7, 'gone.example', '2024-01-01T00:00:00.000Z', '2024-01-09T00:00:00.000Z', '${REMOVED_AT}'),
               (2, 1, 8, 'kept.example', '2024-01-01T00:00:00.000Z', '2024-01-10T00:00:00.000Z', NULL);
      INSERT INTO alerts (id, account_id, domain_id, fqdn, rule, severity, title, body, dedupe_key, first_seen_at, last_seen_at, resolved_at, acknowledged_at)
        VALUES
        -- closed by the domain's removal: the threat may still be sending
        (1, 1, 1, 'gone.example', 'threat_source_appeared', 'critical', 'Threat', 'b', 'threat:1', '2024-01-02T00:00:00.000Z', '2024-01-09T00:00:00.000Z', '${REMOVED_AT}', NULL),
        -- resolved by evidence, before the removal
        (2, 1, 1, 'gone.example', 'score_dropped', 'warning', 'Score', 'b', 'score:1', '2024-01-02T00:00:00.000Z', '2024-01-03T00:00:00.000Z', '2024-01-04T00:00:00.000Z', NULL),
        -- open, acknowledged
        (3, 1, 2, 'kept.example', 'health_regressed', 'warning', 'Health', 'b', 'health:2', '2024-01-05T00:00:00.000Z', '2024-01-05T00:00:00.000Z', NULL, '2024-01-06T00:00:00.000Z'),
        -- a restored notice, born resolved
        (4, 1, 2, 'kept.example', 'protocol_restored', 'info', 'Restored', 'b', 'restored:2', '2024-01-07T00:00:00.000Z', '2024-01-07T00:00:00.000Z', '2024-01-07T00:00:00.000Z', NULL);
    `);
    old.close();

    const mirror = openMirror(file);
    try {
      expect(mirror.getAlert(1)).toMatchObject({
        resolvedAt: null,
        endReason: 'domain_removed',
        endedAt: REMOVED_AT,
      });
      expect(mirror.getAlert(2)).toMatchObject({
        resolvedAt: '2024-01-04T00:00:00.000Z',
        endReason: 'cause_ended',
      });
      expect(mirror.getAlert(3)).toMatchObject({
        resolvedAt: null,
        endReason: 'acknowledged',
        endedAt: '2024-01-06T00:00:00.000Z',
      });
      expect(mirror.getAlert(4)).toMatchObject({ endReason: 'notice' });
    } finally {
      mirror.close();
    }
  });
});
