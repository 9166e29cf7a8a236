/**
 * The status the overview reads is kept by the mirror's writes (main/core/mirror/statusSummary.ts): after
 * every write it is the status derived from the evidence then — an alert opened or resolved, a scan, a DNS
 * answer, an edit waiting — and a mirror from before the summaries gets them when it opens. Nothing reads
 * Protected beside an open critical alert.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../../main/core/mirror/migrations.ts';
import { statusRows } from '../../../../main/core/mirror/statusRows.ts';
import { STATUS_MODEL_VERSION } from '../../../../main/core/status/index.ts';
import { DOMAIN_ID, dnsEvent, failedSources, health, passingBaseline, source, write } from './payloads.ts';
import { openMirror } from '../../../support/openMirror.ts';
import { MIRROR_REGISTRY } from '../../../../main/core/runtime/registry.ts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'authwatch-summary-'));
  file = join(dir, 'mirror.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** example.com on a file, all passing, and a second connection to look at the stored rows. */
function synced() {
  const m = passingBaseline(file);
  const db = new Database(file);
  return { ...m, db };
}

type Synced = ReturnType<typeof synced>;

/** What the overview shows of example.com (its row is read from the summary). */
const verdictOf = (m: Synced) =>
  m.mirror.overview(m.accountId).find((r) => r.domainId === DOMAIN_ID)!.posture.verdict;

/**
 * The summary stored for example.com once the write committed equals the status derived from the evidence
 * now, and nothing is left marked for a reader to derive.
 */
function expectInStep(m: Synced) {
  const pk = (m.db.prepare('SELECT id FROM domains WHERE remote_id = ?').get(DOMAIN_ID) as { id: number }).id;
  const stored = m.db.prepare('SELECT model, status_json FROM domain_status WHERE domain_id = ?').get(pk) as {
    model: number;
    status_json: string;
  };
  const live = MIRROR_REGISTRY.status.derive(statusRows(m.db, { domainPk: pk }).get(pk));
  expect(stored.model).toBe(STATUS_MODEL_VERSION);
  expect(JSON.parse(stored.status_json)).toEqual(live);
  expect(m.db.prepare('SELECT count(*) AS n FROM status_dirty').get()).toEqual({ n: 0 });
}

describe('the status summary the overview reads', () => {
  it('a critical alert opened by a write shows at once, and leaves with its resolution', () => {
    const m = synced();
    expectInStep(m);
    expect(verdictOf(m).level).toBe('good');
    const opened = write(
      m.mirror,
      m.accountId,
      'failed_sources',
      failedSources(source('BadMailer', true)),
      '2025-03-01T08:10:00Z',
    );
    expect(opened.alerts.map((a) => a.severity)).toEqual(['critical']);
    expectInStep(m);
    expect(verdictOf(m)).toMatchObject({ level: 'problem', words: 'Threat sending as this domain' });
    // The threat stops sending: its alert resolves and the row says so in the same commit.
    const resolved = write(
      m.mirror,
      m.accountId,
      'failed_sources',
      failedSources(source('Newsletter', false)),
      '2025-03-01T09:10:00Z',
    );
    expect(resolved.resolved.length).toBe(1);
    expectInStep(m);
    expect(verdictOf(m).level).toBe('good');
  });

  it('a scan, a DNS change, the DNS watch and an edit waiting: each write leaves the summary in step', () => {
    const m = synced();
    write(
      m.mirror,
      m.accountId,
      'health',
      health('2025-03-01T09:00:00Z', { spf: false }),
      '2025-03-01T09:01:00Z',
    );
    expectInStep(m);
    // SPF was seen published (the DNS event): a failing scan says the record is invalid.
    expect(verdictOf(m).words).toBe('SPF invalid record');
    write(
      m.mirror,
      m.accountId,
      'dns_changes',
      [dnsEvent(101, 'spf', 'connected', '2025-03-01T09:30:00Z')],
      '2025-03-01T09:31:00Z',
    );
    expectInStep(m);
    m.mirror.writeDnsWatch(
      [
        {
          accountId: m.accountId,
          domainId: DOMAIN_ID,
          records: [
            {
              protocol: 'dmarc',
              name: '_dmarc.example.com',
              answer: 'absent',
              value: null,
              reason: null,
              ttl: 60,
              resolver: '127.0.0.1:5353',
              checkedAt: '2025-03-01T09:40:00Z',
              state: 'disconnected',
              stateSince: '2025-03-01T09:40:00Z',
              stateCheckedAt: '2025-03-01T09:40:00Z',
            },
          ],
        },
      ],
      '2025-03-01T09:40:00Z',
    );
    expectInStep(m);
    expect(verdictOf(m).level).toBe('problem');
    m.mirror.recordPendingChange({
      accountId: m.accountId,
      domainId: DOMAIN_ID,
      protocol: 'dmarc',
      summary: 'p=reject',
      expect: { kind: 'present', tags: { p: 'reject' } },
      at: '2025-03-01T09:45:00Z',
    });
    expectInStep(m);
    const row = m.mirror.overview(m.accountId).find((r) => r.domainId === DOMAIN_ID)!;
    expect(row.posture.protocols.dmarc.pending).toMatchObject({ summary: 'p=reject', state: 'waiting' });
  });

  it('a tick’s batch derives each domain it touched once, before it commits', () => {
    const m = synced();
    m.mirror.batch(() => {
      write(
        m.mirror,
        m.accountId,
        'health',
        health('2025-03-01T09:00:00Z', { dmarc: false }),
        '2025-03-01T09:01:00Z',
      );
      write(
        m.mirror,
        m.accountId,
        'failed_sources',
        failedSources(source('BadMailer', true)),
        '2025-03-01T09:01:00Z',
      );
    });
    expectInStep(m);
    expect(verdictOf(m).level).toBe('problem');
    expect(verdictOf(m).reasons).toEqual(
      expect.arrayContaining(['Threat sending as this domain', 'DMARC invalid record']),
    );
  });

  it('a change made past the mirror’s writes (another process, a raw fix) is read from the evidence at once', () => {
    const m = synced();
    write(
      m.mirror,
      m.accountId,
      'failed_sources',
      failedSources(source('BadMailer', true)),
      '2025-03-01T08:10:00Z',
    );
    expect(verdictOf(m).level).toBe('problem');
    // The alert is resolved by a connection that knows nothing of the summaries: the trigger marks the domain.
    m.db
      .prepare("UPDATE alerts SET resolved_at = '2025-03-01T08:20:00.000Z' WHERE resolved_at IS NULL")
      .run();
    expect(verdictOf(m).level).toBe('good');
    m.db.close();
    m.mirror.close();
  });

  it('an existing mirror (before the summaries) gets every domain’s status when it opens', () => {
    // Version 11 as the code of that version left it: a domain with a failing SPF scan and an open critical alert.
    const old = new Database(file);
    migrate(old, MIGRATIONS.slice(0, 11));
    old.exec(`
      INSERT INTO accounts (id, label, base_url, created_at) VALUES (1, 'Acme', 'https://a.example/api/v1', '2025-01-01T00:00:00.000Z');
      INSERT INTO domains (id, account_id, remote_id, fqdn, first_seen_at, last_seen_at)
        VALUES (10, 1, ${DOMAIN_ID}, 'example.com', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'),
               (11, 1, 4212, 'example.org', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z');
      INSERT INTO health_snapshots (domain_id, scanned_at, result, protocols_json, protocols_passing, total_protocols, dmarc_record, raw_json, fetched_at)
        VALUES (10, '2025-03-01T08:00:00.000Z', 'Partially protected',
          '{"dmarc":true,"spf":false,"mta_sts":true,"tls_rpt":true,"bimi":true}', 4, 5, 'v=DMARC1; p=reject', '{}', '2025-03-01T08:01:00.000Z'),
               (11, '2025-03-01T08:00:00.000Z', 'Protected',
          '{"dmarc":true,"spf":true,"mta_sts":false,"tls_rpt":false,"bimi":false}', 2, 5, 'v=DMARC1; p=reject', '{}', '2025-03-01T08:01:00.000Z');
      INSERT INTO alerts (account_id, domain_id, fqdn, rule, severity, title, body, dedupe_key, first_seen_at, last_seen_at)
        VALUES (1, 10, 'example.com', 'threat_source_appeared', 'critical', 'Threat sending as example.com', 'BadMailer',
          'threat:1:example.com:BadMailer', '2025-03-01T08:05:00.000Z', '2025-03-01T08:05:00.000Z');
    `);
    old.close();
    const mirror = openMirror(file);
    const db = new Database(file);
    expect(db.prepare('SELECT count(*) AS n FROM domain_status').get()).toEqual({ n: 2 });
    const rows = mirror.overview(1);
    const byName = new Map(rows.map((r) => [r.fqdn, r.posture]));
    expect(byName.get('example.com')!.verdict).toMatchObject({
      level: 'problem',
      reasons: ['Threat sending as this domain', 'SPF failing'],
    });
    // Optional protocols not set up are not failures.
    expect(byName.get('example.org')!.verdict.level).toBe('good');
    for (const pk of [10, 11]) {
      const stored = db.prepare('SELECT status_json FROM domain_status WHERE domain_id = ?').get(pk) as {
        status_json: string;
      };
      expect(JSON.parse(stored.status_json)).toEqual(
        MIRROR_REGISTRY.status.derive(statusRows(db, { domainPk: pk }).get(pk)!),
      );
    }
    db.close();
    mirror.close();
  });

  it('statuses a different status model stored are derived again when the mirror opens', () => {
    const m = synced();
    // As a mirror of the previous version of the app left it.
    m.db.prepare("UPDATE domain_status SET model = model - 1, status_json = '{}'").run();
    m.db.prepare('UPDATE status_model SET version = version - 1').run();
    // Until then a reader does not trust them.
    expect(verdictOf(m).level).toBe('good');
    m.mirror.close();
    const reopened = openMirror(file);
    expect(m.db.prepare('SELECT DISTINCT model FROM domain_status').all()).toEqual([
      { model: STATUS_MODEL_VERSION },
    ]);
    expectInStep(m);
    reopened.close();
    m.db.close();
  });
});
