/**
 * A signal write's cost does not grow with the alert history. Every write reads the open episodes of its
 * domain and account (to dedupe and resolve alerts) and the status reads a domain's open alerts; resolved
 * episodes stay in the mirror for good, so a read that walked them grew with every day the app ran (a
 * simulated week at 1,000 domains: ~12,000 alerts, the engine's CPU per quarter-day 25 -> 104 s).
 */
import { describe, expect, it } from 'vitest';
import { AlertStore } from '../../../../main/core/mirror/alertStore.ts';
import { DOMAIN_ID, domainsPayload, health } from './payloads.ts';
import { bindings, recordingMirror } from './recordingMirror.ts';
import { ALERT_CATALOGUE } from '../../../../main/core/livechecks/ruleRegistry.ts';

/** A mirror with example.com and example.org, a long resolved alert history, and the SQL it prepares. */
function mirrorWithAlertHistory() {
  const { db, mirror, seen, clock, prepare } = recordingMirror();
  const { id: accountId } = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://x.example/api/v1' });
  mirror.writeSignal({
    accountId,
    domainId: null,
    signal: 'domains',
    payload: domainsPayload(),
    fetchedAt: clock.now(),
  });
  const pk = (fqdn: string) =>
    (prepare('SELECT id FROM domains WHERE fqdn = ?').get(fqdn) as { id: number }).id;
  const insert = prepare(
    `INSERT INTO alerts (account_id, domain_id, fqdn, rule, severity, title, body, dedupe_key, first_seen_at,
       last_seen_at, resolved_at, delivered_at) VALUES (@accountId, @domainPk, @fqdn, 'record_removed', 'critical',
       'SPF removed', 'The SPF record was removed.', @key, @at, @at, @resolvedAt, @resolvedAt)`,
  );
  const add = (domainPk: number | null, fqdn: string | null, key: string, resolvedAt: string | null) =>
    Number(
      insert.run({ accountId, domainPk, fqdn, key, at: '2025-02-01T00:00:00Z', resolvedAt }).lastInsertRowid,
    );
  const com = pk('example.com');
  const org = pk('example.org');
  for (let i = 0; i < 2_000; i++)
    add(i % 2 ? com : org, i % 2 ? 'example.com' : 'example.org', `old:${i}`, '2025-02-02T00:00:00Z');
  return { db, mirror, seen, clock, accountId, add, com, org };
}

describe('open alerts against a long alert history', () => {
  it('a domain’s open alerts are its own and the account’s open episodes, not the resolved or another domain’s', () => {
    const { db, accountId, add, com, org } = mirrorWithAlertHistory();
    const own = add(com, 'example.com', 'removed:example.com:spf', null);
    const account = add(null, null, 'token:expired', null);
    add(org, 'example.org', 'removed:example.org:spf', null);
    add(com, 'example.com', 'removed:example.com:dmarc', '2025-02-03T00:00:00Z');
    const store = new AlertStore(db, ALERT_CATALOGUE);
    expect([...store.openAlerts(accountId, com).values()].map((a) => a.id).sort()).toEqual(
      [own, account].sort(),
    );
    // The account's own checks (no domain) see the account-level episodes only.
    expect([...store.openAlerts(accountId, null).values()].map((a) => a.id)).toEqual([account]);
  });

  it('a signal write reaches the alerts through the open episodes, never through the whole history', () => {
    const { db, mirror, seen, clock, accountId } = mirrorWithAlertHistory();
    mirror.writeSignal({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'health',
      payload: health(new Date(clock.now()).toISOString()),
      fetchedAt: clock.now(),
    });
    // Statements are prepared once per connection, so this is every read of alerts since the mirror opened:
    // the domain list's write and the health write (the rules' context and the domain's status among them).
    const reads = seen.filter((sql) => /^\s*(SELECT|WITH)/i.test(sql) && /\balerts\b/.test(sql));
    expect(reads.length).toBeGreaterThanOrEqual(2);
    for (const sql of reads) {
      const plan = (
        db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...bindings(sql, accountId)) as { detail: string }[]
      ).map((step) => step.detail);
      // A SCAN of alerts, or a search by account alone, visits every episode the account ever had.
      const walks = plan.filter((step) => /^SCAN (alerts|a)\b|alerts_by_account/.test(step));
      const flat = sql.replace(/\s+/g, ' ').trim();
      expect({ sql: flat, walks }).toEqual({ sql: flat, walks: [] });
    }
  });
  it('the alerts to notify (read after every write) are the undelivered ones, found without the delivered history', () => {
    const { db, mirror, seen, accountId, add, com } = mirrorWithAlertHistory();
    const waiting = add(com, 'example.com', 'removed:example.com:spf', null);
    expect(mirror.pendingDeliveries().map((a) => a.id)).toEqual([waiting]);
    const reads = seen.filter((sql) => /^\s*(SELECT|WITH)/i.test(sql) && /a\.delivered_at IS NULL/.test(sql));
    expect(reads.length).toBe(1);
    const plan = (
      db.prepare(`EXPLAIN QUERY PLAN ${reads[0]}`).all(...bindings(reads[0]!, accountId)) as {
        detail: string;
      }[]
    ).map((step) => step.detail);
    // The alerts are walked only through the index of the undelivered, in the order they are told.
    expect(plan.filter((step) => /^SCAN (alerts|a)\b/.test(step))).toEqual([
      'SCAN a USING INDEX alerts_to_deliver',
    ]);
    expect(plan.some((step) => /TEMP B-TREE/.test(step))).toBe(false);
  });

  it('the Alerts page’s open incidents: every alert of each domain with an open alert, the open ones found by index', () => {
    const { db, mirror, seen, accountId, add, com } = mirrorWithAlertHistory();
    const own = add(com, 'example.com', 'removed:example.com:spf', null);
    const account = add(null, null, 'token:expired', null);
    const accountBefore = add(null, null, 'token:expired:before', '2025-02-03T00:00:00Z');
    add(null, 'other.example', 'account:other.example', '2025-02-03T00:00:00Z');
    // example.com's whole history (its 1,000 resolved alerts too) and the account-level alerts of the same
    // scope as the open one; nothing of example.org, nor of an account-level scope with nothing open.
    const all = mirror.listAlertsOfOpenScopes({ accountId });
    expect(all).toHaveLength(1_000 + 3);
    expect(all.filter((a) => a.fqdn === 'example.com')).toHaveLength(1_001);
    expect(all.filter((a) => a.fqdn === null).map((a) => a.id)).toEqual(
      [accountBefore, account].sort((x, y) => y - x),
    );
    expect(mirror.listAlertsOfOpenScopes().map((a) => a.id)).toEqual(all.map((a) => a.id));
    const ofDomain = mirror.listAlertsOfOpenScopes({ accountId, domainId: DOMAIN_ID });
    expect(ofDomain).toHaveLength(1_001);
    expect(ofDomain[0]?.id).toBe(own);

    const reads = seen.filter((sql) => /EXISTS \(SELECT 1 FROM alerts o\b/.test(sql));
    expect(reads).toHaveLength(3);
    const plans = reads.map((sql) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...bindings(sql, accountId)) as { detail: string }[]).map(
        (step) => step.detail,
      ),
    );
    for (const plan of plans) {
      // Whether an alert's scope is open is one seek in the index of the open episodes, never a walk.
      expect(plan).toContain(
        'SEARCH o EXISTS USING INDEX alerts_open_by_domain (domain_id=? AND account_id=?)',
      );
      expect(plan.filter((step) => /^SCAN o\b/.test(step))).toEqual([]);
    }
    // One account's (the page's account filter): its alerts by the account's index, not every account's.
    const ofOneAccount = plans.filter((_, i) => /a\.account_id = \?/.test(reads[i]!));
    expect(ofOneAccount).toHaveLength(2);
    for (const plan of ofOneAccount)
      expect(plan.filter((step) => /^(SCAN|SEARCH) a\b/.test(step))).toEqual([
        'SEARCH a USING INDEX alerts_by_account (account_id=?)',
      ]);
  });
});
