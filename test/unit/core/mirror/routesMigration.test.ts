import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../../support/openMirror.ts';
import { MIGRATIONS, migrate } from '../../../../main/core/mirror/migrations.ts';
import { routeAlert } from '../../../../main/core/mirror/routing.ts';
import type { AlertFacts } from '../../../../main/core/alerts/matchers.ts';

const dir = mkdtempSync(join(tmpdir(), 'authwatch-routes-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const facts = (accountId: number, severity: AlertFacts['severity']): AlertFacts => ({
  accountId,
  group: null,
  domain: 'a.example',
  protocol: 'spf',
  rule: 'protocol_disconnected',
  severity,
});

describe('upgrading a mirror to the routing table (v18)', () => {
  it('turns each channel’s minimum severity and account into a route, and sends exactly where it did before', () => {
    const file = join(dir, 'v17.sqlite');
    const old = new Database(file);
    migrate(
      old,
      MIGRATIONS.filter((m) => m.version <= 17),
    );
    old.exec(`
      INSERT INTO accounts (id, label, base_url, created_at) VALUES
        (1, 'Acme', 'https://a.example/api/v1', '2024-01-01T00:00:00.000Z'),
        (2, 'Client B', 'https://b.example/api/v1', '2024-01-01T00:00:00.000Z');
      INSERT INTO channels (id, name, kind, min_severity, account_id, config_json, created_at) VALUES
        (1, 'pager', 'webhook', 'critical', NULL, '{"kind":"webhook","format":"generic","urlShown":"x"}', '2024-01-01T00:00:00.000Z'),
        (2, 'b-mail', 'email', 'warning', 2, '{"kind":"email"}', '2024-01-01T00:00:00.000Z'),
        (3, 'everything', 'webhook', 'info', NULL, '{"kind":"webhook","format":"generic","urlShown":"x"}', '2024-01-01T00:00:00.000Z');
    `);
    const before = (accountId: number, severity: AlertFacts['severity']) =>
      (
        old
          .prepare(
            `SELECT name FROM channels WHERE (account_id IS NULL OR account_id = ?) AND
               CASE min_severity WHEN 'info' THEN 1 WHEN 'warning' THEN ? <> 'info' ELSE ? = 'critical' END
             ORDER BY name`,
          )
          .all(accountId, severity, severity) as { name: string }[]
      ).map((r) => r.name);
    const cases = [1, 2].flatMap((acc) =>
      (['info', 'warning', 'critical'] as const).map((sev) => [acc, sev] as const),
    );
    const expected = cases.map(([acc, sev]) => before(acc, sev));
    old.close();

    const mirror = openMirror(file);
    try {
      expect(
        mirror.routes.list().map((r) => ({
          name: r.name,
          matchers: r.matchers,
          channelIds: r.channelIds,
          continue: r.continue,
        })),
      ).toEqual([
        {
          name: 'Channel b-mail',
          matchers: { severities: ['warning', 'critical'], accountId: 2 },
          channelIds: [2],
          continue: true,
        },
        { name: 'Channel pager', matchers: { severities: ['critical'] }, channelIds: [1], continue: true },
        { name: 'Default', matchers: {}, channelIds: null, continue: false },
      ]);
      const channels = mirror.delivery.listChannels();
      expect(channels.map((c) => [c.name, c.minSeverity, c.accountId])).toEqual([
        ['b-mail', 'info', null],
        ['everything', 'info', null],
        ['pager', 'info', null],
      ]);
      const after = cases.map(([acc, sev]) =>
        routeAlert(mirror.routes.list(), facts(acc, sev), channels)
          .channels.map((c) => c.name)
          .sort(),
      );
      expect(after).toEqual(expected);
    } finally {
      mirror.close();
    }
  });
});
