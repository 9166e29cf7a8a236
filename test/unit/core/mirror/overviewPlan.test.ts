/**
 * The overview's cost follows the number of domains, not the length of their history: every query it runs
 * reaches a history table (health snapshots, scores) by an index seek per domain, never a scan of its rows.
 * A scan read every day of every domain's year (1,000 domains: over a second before the first screen).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTER } from '../../../../shared/bridge/overviewFilter.ts';
import { DOMAIN_ID, domainsPayload, health } from './payloads.ts';
import { bindings, recordingMirror } from './recordingMirror.ts';

const HISTORY_TABLES = ['health_snapshots', 'security_scores', 'score_history', 'mail_volume_days'];

/** The history tables a query reads, by name and by the alias it gives them. */
function historyNames(sql: string): Set<string> {
  const names = new Set<string>();
  for (const table of HISTORY_TABLES) {
    if (!sql.includes(table)) continue;
    names.add(table);
    for (const m of sql.matchAll(new RegExp(`\\b${table}\\s+(?:AS\\s+)?(\\w+)`, 'gi')))
      if (!/^(WHERE|ON|JOIN|ORDER|GROUP|LIMIT)$/i.test(m[1]!)) names.add(m[1]!);
  }
  return names;
}

describe('the overview at portfolio scale', () => {
  it.each([
    ['of every account', undefined, 'full'],
    ['of one account', 1, 'full'],
    ['of every account', undefined, 'page'],
    ['of one account, sorted by score', 1, 'page'],
  ] as const)(
    'the overview %s seeks each domain’s newest row: no query scans a history table (%s)',
    (_, account, kind) => {
      const { db, mirror, seen, clock } = recordingMirror();
      const { id: accountId } = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://x.example/api/v1' });
      const at = clock.now();
      mirror.writeSignal({
        accountId,
        domainId: null,
        signal: 'domains',
        payload: domainsPayload(),
        fetchedAt: at,
      });
      mirror.writeSignal({
        accountId,
        domainId: DOMAIN_ID,
        signal: 'health_history',
        payload: Array.from({ length: 30 }, (_, i) => {
          const {
            domain_id: _id,
            fqdn: _fqdn,
            ...row
          } = health(new Date(at - (i + 1) * 86_400_000).toISOString());
          return { ...row, scanned_at: row.scanned_at! };
        }),
        fetchedAt: at,
      });
      mirror.writeSignal({
        accountId,
        domainId: DOMAIN_ID,
        signal: 'health',
        payload: health(new Date(at).toISOString()),
        fetchedAt: at,
      });
      seen.length = 0;
      const scope = account === undefined ? undefined : accountId;
      if (kind === 'full') {
        const rows = mirror.overview(scope);
        // What the user sees: the newest scan of the domain, not a day of its history.
        expect(rows.find((r) => r.domainId === DOMAIN_ID)?.health?.scannedAt).toBe(
          new Date(at).toISOString(),
        );
      } else {
        const page = mirror.overviewPage({
          ...DEFAULT_FILTER,
          ...(scope === undefined ? {} : { accountId: scope, sort: 'score' as const }),
          groupByGroup: false,
          offset: 0,
          limit: 50,
        });
        // The newest scan's status: every protocol passing, as the last scan (not the history) says.
        expect(page.rows.find((r) => r.domainId === DOMAIN_ID)?.posture.protocols.spf.evidence?.at).toBe(
          new Date(at).toISOString(),
        );
      }
      const queries = seen.filter((sql) => /^\s*(SELECT|WITH)/i.test(sql));
      expect(queries.length).toBeGreaterThan(0);
      for (const sql of queries) {
        const plan = (
          db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...bindings(sql, accountId)) as {
            detail: string;
          }[]
        ).map((step) => step.detail);
        const scans = plan.filter((step) => historyNames(sql).has(/^SCAN (\w+)/.exec(step)?.[1] ?? ''));
        expect({ sql: sql.replace(/\s+/g, ' ').trim(), scans }).toEqual({
          sql: sql.replace(/\s+/g, ' ').trim(),
          scans: [],
        });
      }
    },
  );
});
