/**
 * One screen of the window's overview (Mirror.overviewPage): main searches, filters, sorts and counts every
 * listed domain and answers the rows of the page asked for. What a user sees must be what the full
 * overview (every row with its status) says: the same domains in the order the table promised, the same
 * headline, pages that join up without a gap or a repeat, and each row's status (chips, verdict, hover
 * texts) the one its evidence gives — also for a domain whose evidence changed past the mirror's writes.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILTER,
  DMARC_RANK,
  DMARC_STATES,
  dmarcState,
} from '../../../../shared/bridge/overviewFilter.ts';
import type { OverviewPageArgs } from '../../../../shared/bridge/overviewPage.ts';
import { openMirror } from '../../../../main/core/mirror/openMirror.ts';
import { STATUS_MODEL } from '../../../../main/core/status/statusModel.ts';
import type { MirrorOverviewRow } from '../../../../main/core/mirror/types.ts';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeClock, health, mirrorWithDomain, score, write } from './payloads.ts';

const AT = '2025-03-01T09:00:00Z';

/** A portfolio of a dozen domains that differ in every column the table sorts and filters by. */
const DOMAINS: {
  fqdn: string;
  group?: [number, string];
  status?: string;
  flags?: Parameters<typeof health>[1];
  dmarc?: string;
  score?: number;
  disconnect?: 'spf' | 'dmarc';
}[] = [
  { fqdn: 'alpha.example', score: 9.1, group: [1, 'Brands'] },
  { fqdn: 'bravo.example', score: 4.2, flags: { spf: false }, group: [1, 'Brands'] },
  { fqdn: 'charlie.example', score: 7.5, dmarc: 'v=DMARC1; p=none', flags: { bimi: false } },
  { fqdn: 'delta.example', score: 6, dmarc: 'v=DMARC1; p=quarantine; pct=50', group: [2, 'Shops'] },
  { fqdn: 'echo.example', dmarc: '', flags: { dmarc: false, mta_sts: false } },
  { fqdn: 'foxtrot.example', score: 9.1, disconnect: 'spf', group: [2, 'Shops'] },
  { fqdn: 'golf.example', score: 2.5, flags: { tls_rpt: false, bimi: false } },
  { fqdn: 'hotel.example', score: 8, status: 'parked' },
  { fqdn: 'india.example', score: 3, group: [3, 'Parked names'] },
  { fqdn: 'juliet-pay.example', score: 5.5, disconnect: 'dmarc', group: [2, 'Shops'] },
  { fqdn: 'kilo.example' }, // never scanned: "not checked yet"
  { fqdn: 'lima.example', score: 10, dmarc: 'v=DMARC1; p=quarantine' },
];

function portfolio() {
  const clock = fakeClock('2025-03-01T10:00:00Z');
  const mirror = openMirror(':memory:', { clock, status: STATUS_MODEL });
  const { id: accountId } = mirror.upsertAccount({ label: 'Acme MSP', baseUrl: 'https://x.example/api/v1' });
  mirror.writeSignal({
    accountId,
    domainId: null,
    signal: 'domains',
    payload: DOMAINS.map((d, i) => ({
      id: 100 + i,
      fqdn: d.fqdn,
      status: d.status ?? 'active',
      group_id: d.group?.[0] ?? null,
      ...(d.group ? { group_name: d.group[1] } : {}),
    })),
    fetchedAt: Date.parse(AT),
  });
  DOMAINS.forEach((d, i) => {
    const domainId = 100 + i;
    const scan = (at: string, flags: Parameters<typeof health>[1]) => ({
      ...health(at, flags),
      domain_id: domainId,
      fqdn: d.fqdn,
      ...(d.dmarc !== undefined ? { dmarc_record: d.dmarc } : {}),
    });
    if (d.fqdn === 'kilo.example') return;
    const write = (signal: 'health' | 'security_score', payload: unknown, at: string) =>
      mirror.writeSignal({ accountId, domainId, signal, payload: payload as never, fetchedAt: at });
    write('health', scan('2025-03-01T08:00:00Z', d.flags), '2025-03-01T08:00:00Z');
    // A protocol that passed and then failed: the rules open an alert for it.
    if (d.disconnect) write('health', scan(AT, { ...d.flags, [d.disconnect]: false }), AT);
    if (d.score !== undefined)
      write('security_score', { ...score(d.score, AT), domain_id: domainId, fqdn: d.fqdn }, AT);
  });
  return { mirror, accountId, db: (mirror as unknown as { db: Database }).db };
}

const query = (patch: Partial<OverviewPageArgs> = {}): OverviewPageArgs => ({
  ...DEFAULT_FILTER,
  groupByGroup: false,
  offset: 0,
  limit: 200,
  ...patch,
});

const parked = (r: MirrorOverviewRow) => r.status === 'parked' || /parked/i.test(r.group?.name ?? '');
const names = (rows: { fqdn: string }[]) => rows.map((r) => r.fqdn);
const byName = (a: MirrorOverviewRow, b: MirrorOverviewRow) => a.fqdn.localeCompare(b.fqdn);

describe('the overview a page at a time', () => {
  it('lists the listed domains by name, parked ones only when shown, each row as the full overview says', () => {
    const { mirror } = portfolio();
    const full = mirror.overview();
    const visible = full.filter((r) => !parked(r)).sort(byName);
    const page = mirror.overviewPage(query());
    expect(names(page.rows)).toEqual(names(visible));
    expect(page.shown).toBe(visible.length);
    expect(page.scope).toEqual({
      domains: full.length,
      parked: full.filter(parked).length,
      openAlerts: full.reduce((n, r) => n + r.openAlerts, 0),
    });
    expect(page.scope.openAlerts).toBeGreaterThan(0); // the disconnections opened alerts
    for (const row of page.rows) {
      const r = full.find((f) => f.fqdn === row.fqdn)!;
      expect(row).toEqual({
        accountId: r.accountId,
        accountLabel: r.accountLabel,
        domainId: r.domainId,
        fqdn: r.fqdn,
        group: r.group,
        score: r.score?.score ?? null,
        openAlerts: r.openAlerts,
        posture: r.posture,
        dataAt:
          Object.values(r.data)
            .map((a) => a?.lastSuccessAt ?? '')
            .sort()
            .at(-1) || null,
        lastError: null,
      });
    }
    const shownParked = mirror.overviewPage(query({ showParked: true }));
    expect(names(shownParked.rows)).toEqual(names([...full].sort(byName)));
    mirror.close();
  });

  it('the headline counts every visible domain, not only the page, and adds up', () => {
    const { mirror } = portfolio();
    const visible = mirror.overview().filter((r) => !parked(r));
    const page = mirror.overviewPage(query({ limit: 2 }));
    expect(page.rows).toHaveLength(2);
    expect(page.headline.byPolicy).toMatchObject({ quarantine: 2, none: 1, missing: 1, unknown: 1 });
    const scored = visible.filter((r) => r.score);
    const states = (r: MirrorOverviewRow) => Object.values(r.posture.protocols).map((p) => p.state);
    expect(page.headline).toEqual({
      total: visible.length,
      byPolicy: Object.fromEntries(
        DMARC_STATES.map((s) => [s, visible.filter((r) => dmarcState(r.posture).state === s).length]),
      ),
      byVerdict: {
        problem: visible.filter((r) => r.posture.verdict.level === 'problem').length,
        warning: visible.filter((r) => r.posture.verdict.level === 'warning').length,
        unknown: 1,
        good: visible.filter((r) => r.posture.verdict.level === 'good').length,
      },
      averageScore: scored.reduce((s, r) => s + r.score!.score, 0) / scored.length,
      alerts: visible.reduce((n, r) => n + r.openAlerts, 0),
      failingAny: visible.filter((r) => states(r).includes('failing')).length,
      optionalNotSetUp: visible.filter((r) => states(r).includes('not_set_up')).length,
    });
    const { byVerdict } = page.headline;
    expect(byVerdict.problem + byVerdict.warning + byVerdict.unknown + byVerdict.good).toBe(visible.length);
    mirror.close();
  });

  it('sorts every domain on each column both ways, ties by name', () => {
    const { mirror } = portfolio();
    const visible = mirror.overview().filter((r) => !parked(r));
    const value: Record<string, (r: MirrorOverviewRow) => number | string> = {
      score: (r) => r.score?.score ?? -1,
      alerts: (r) => r.openAlerts,
      result: (r) => ['problem', 'warning', 'unknown', 'good'].indexOf(r.posture.verdict.level),
      protocols: (r) => r.posture.counts.requiredPassing * 10 + r.posture.counts.optionalPassing,
    };
    for (const [sort, of] of Object.entries(value)) {
      for (const descending of [false, true]) {
        const sign = descending ? -1 : 1;
        const want = [...visible].sort((a, b) => {
          const [x, y] = [of(a), of(b)];
          return sign * (x < y ? -1 : x > y ? 1 : 0) || a.fqdn.localeCompare(b.fqdn);
        });
        const got = mirror.overviewPage(query({ sort: sort as OverviewPageArgs['sort'], descending }));
        expect({ sort, descending, order: names(got.rows) }).toEqual({
          sort,
          descending,
          order: names(want),
        });
      }
    }
    // DMARC: not scanned, then missing, then p=none, quarantine and reject last; ties by name.
    const rank = (r: MirrorOverviewRow) => DMARC_RANK[dmarcState(r.posture).state];
    const dmarc = [...visible].sort((a, b) => rank(a) - rank(b) || a.fqdn.localeCompare(b.fqdn));
    expect(names(mirror.overviewPage(query({ sort: 'dmarc' })).rows)).toEqual(names(dmarc));
    expect(names(dmarc).slice(0, 3)).toEqual(['kilo.example', 'echo.example', 'charlie.example']);
    const age = mirror.overviewPage(query({ sort: 'age', descending: true })).rows;
    expect(age.map((r) => r.dataAt)).toEqual(
      [...age.map((r) => r.dataAt)].sort((a, b) => (b ?? '').localeCompare(a ?? '')),
    );
    mirror.close();
  });

  it('searches by name, group or account, and filters by policy, failing protocol, status and alerts', () => {
    const { mirror } = portfolio();
    const visible = mirror.overview().filter((r) => !parked(r));
    const only = (patch: Partial<OverviewPageArgs>) => names(mirror.overviewPage(query(patch)).rows);
    const want = (test: (r: MirrorOverviewRow) => boolean) => names(visible.filter(test).sort(byName));

    expect(only({ search: ' PAY ' })).toEqual(['juliet-pay.example']);
    expect(only({ search: 'shops' })).toEqual(want((r) => r.group?.name === 'Shops'));
    expect(only({ search: 'acme msp' })).toEqual(names([...visible].sort(byName)));
    expect(only({ search: 'no-such-domain' })).toEqual([]);
    expect(only({ dmarc: 'quarantine' })).toEqual(['delta.example', 'lima.example']);
    expect(only({ dmarc: 'enforced' })).toEqual(
      want((r) => /p=(reject|quarantine)/.test(r.posture.protocols.dmarc.record ?? '')),
    );
    expect(only({ dmarc: 'missing' })).toEqual(['echo.example']);
    expect(only({ dmarc: 'unknown' })).toEqual(['kilo.example']);
    expect(only({ failing: 'spf' })).toEqual(want((r) => r.posture.protocols.spf.state === 'failing'));
    expect(only({ failing: 'spf' })).toEqual(['bravo.example', 'foxtrot.example']);
    expect(only({ failing: 'any' })).toEqual(
      want((r) => Object.values(r.posture.protocols).some((p) => p.state === 'failing')),
    );
    // An optional protocol not set up is not failing: BIMI absent fails no one here.
    expect(only({ failing: 'bimi' })).toEqual([]);
    expect(only({ verdict: 'problem' })).toEqual(want((r) => r.posture.verdict.level === 'problem'));
    expect(only({ verdict: 'unknown' })).toEqual(['kilo.example']);
    expect(only({ alertsOnly: true })).toEqual(want((r) => r.openAlerts > 0));
    expect(only({ alertsOnly: true }).length).toBeGreaterThan(0);
    // The filters narrow the rows, never the headline (it counts the portfolio).
    const filtered = mirror.overviewPage(query({ dmarc: 'missing' }));
    expect(filtered.shown).toBe(1);
    expect(filtered.headline.total).toBe(visible.length);
    mirror.close();
  });

  it('pages join up: every page of any size gives the whole order once, past the end nothing', () => {
    const { mirror } = portfolio();
    const whole = names(mirror.overviewPage(query({ sort: 'score', descending: true })).rows);
    for (const size of [1, 3, 5, whole.length - 1, whole.length]) {
      const joined: string[] = [];
      for (let offset = 0; offset < whole.length; offset += size) {
        const page = mirror.overviewPage(query({ sort: 'score', descending: true, offset, limit: size }));
        expect(page.offset).toBe(offset);
        expect(page.shown).toBe(whole.length);
        joined.push(...names(page.rows));
      }
      expect(joined).toEqual(whole);
    }
    const past = mirror.overviewPage(query({ offset: whole.length, limit: 10 }));
    expect(past.rows).toEqual([]);
    expect(past.shown).toBe(whole.length);
    expect(mirror.overviewPage(query({ offset: 0, limit: 0 })).rows).toEqual([]);
    mirror.close();
  });

  it('groups: group by group in name order, no group last, each group sorted, with its count', () => {
    const { mirror } = portfolio();
    const page = mirror.overviewPage(query({ groupByGroup: true, sort: 'score', descending: true }));
    expect(page.groups).toEqual([
      { name: 'Brands', count: 2 },
      { name: 'Shops', count: 3 },
      { name: 'No group', count: 5 },
    ]);
    expect(names(page.rows)).toEqual([
      'alpha.example',
      'bravo.example',
      'foxtrot.example',
      'delta.example',
      'juliet-pay.example',
      'lima.example',
      'charlie.example',
      'echo.example', // its score derived from its scan (6)
      'golf.example',
      'kilo.example',
    ]);
    // A page in the middle of the grouped order.
    expect(names(mirror.overviewPage(query({ groupByGroup: true, offset: 4, limit: 2 })).rows)).toEqual([
      'juliet-pay.example',
      'charlie.example',
    ]);
    expect(mirror.overviewPage(query()).groups).toBeNull();
    mirror.close();
  });

  it('one account or every account: the same rows, and an account with no domains has none', () => {
    const { mirror, accountId } = portfolio();
    const other = mirror.upsertAccount({ label: 'Empty', baseUrl: 'https://y.example/api/v1' });
    expect(mirror.overviewPage(query({ accountId }))).toEqual(mirror.overviewPage(query()));
    const none = mirror.overviewPage(query({ accountId: other.id }));
    expect(none).toMatchObject({ shown: 0, rows: [], scope: { domains: 0, parked: 0, openAlerts: 0 } });
    expect(none.headline.averageScore).toBeNull();
    mirror.close();
  });

  it('a domain whose evidence changed past the mirror’s writes shows, sorts and counts by the new evidence', () => {
    const { mirror, db } = portfolio();
    // Another process's write: a newer scan where alpha's SPF fails, straight into the table (the trigger
    // marks the domain; nothing derived its status again).
    const alpha = db.prepare("SELECT id FROM domains WHERE fqdn = 'alpha.example'").get() as { id: number };
    db.prepare(
      `INSERT INTO health_snapshots (domain_id, scanned_at, source, result, protocols_json, protocols_passing,
         total_protocols, dmarc_record, raw_json, fetched_at)
       SELECT domain_id, '2025-03-01T09:30:00Z', source, result, '{"dmarc":true,"spf":false,"mta_sts":true,"tls_rpt":true,"bimi":true}',
         4, total_protocols, dmarc_record, raw_json, fetched_at FROM health_snapshots WHERE domain_id = ? LIMIT 1`,
    ).run(alpha.id);
    const full = mirror.overview().find((r) => r.fqdn === 'alpha.example')!;
    expect(full.posture.protocols.spf.state).toBe('failing');
    const spf = mirror.overviewPage(query({ failing: 'spf' }));
    expect(names(spf.rows)).toContain('alpha.example');
    expect(spf.rows.find((r) => r.fqdn === 'alpha.example')!.posture).toEqual(full.posture);
    mirror.close();
  });

  it('a call after a write shows it, whether this connection or another process wrote it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'authwatch-overview-page-'));
    try {
      const file = join(dir, 'mirror.db');
      const { mirror, accountId } = mirrorWithDomain(file);
      write(mirror, accountId, 'health', health('2025-03-01T08:00:00Z'), '2025-03-01T08:00:00Z');
      const spf = () => names(mirror.overviewPage(query({ failing: 'spf' })).rows);
      expect(spf()).toEqual([]);
      // The mirror's own write: the next call reads the portfolio again.
      write(
        mirror,
        accountId,
        'health',
        health('2025-03-01T09:00:00Z', { spf: false }),
        '2025-03-01T09:00:00Z',
      );
      expect(spf()).toEqual(['example.com']);
      expect(mirror.overviewPage(query()).headline.failingAny).toBe(1);
      // Another process's write (a second connection): SPF passes again in a newer scan.
      const other = new BetterSqlite3(file);
      other
        .prepare(
          `INSERT INTO health_snapshots (domain_id, scanned_at, source, result, protocols_json, protocols_passing,
             total_protocols, dmarc_record, raw_json, fetched_at)
           SELECT domain_id, '2025-03-01T09:30:00Z', source, result, '{"dmarc":true,"spf":true,"mta_sts":true,"tls_rpt":true,"bimi":true}',
             5, total_protocols, dmarc_record, raw_json, fetched_at FROM health_snapshots LIMIT 1`,
        )
        .run();
      other.close();
      expect(spf()).toEqual([]);
      expect(mirror.overviewPage(query()).headline.failingAny).toBe(0);
      mirror.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
