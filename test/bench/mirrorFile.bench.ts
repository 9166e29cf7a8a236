/**
 * The mirror's write path on a FILE against raw better-sqlite3 on a file with the same durability settings
 * (WAL, synchronous=FULL: what openMirror sets), so the commit is counted on both sides (issue 21, item 3;
 * in memory both sides hide it). 1,000 health snapshots, one writeSignal each (its own transaction with the
 * alert rules: what the engine did before it batched a tick), and five per commit through the engine's own
 * WriteBatch (one sync tick's writes, each in its savepoint with its alert rules), against the same rows
 * inserted raw one per transaction and raw five per transaction. Prints figures.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RULES } from '../../main/core/livechecks/ruleRegistry.ts';
import { MIRROR_REGISTRY } from '../../main/core/runtime/registry.ts';
import { openMirror } from '../support/openMirror.ts';
import { openMirrorDatabase } from '../../main/core/mirror/openMirror.ts';
import { SqliteMirror } from '../../main/core/mirror/sqliteMirror.ts';
import type { Mirror } from '../../main/core/mirror/types.ts';
import type { SyncJob } from '../../main/core/sync/syncJobs.ts';
import { WriteBatch } from '../../main/core/sync/writeBatch.ts';
import { walCommits } from '../support/walCommits.ts';
import { report } from './measure.ts';
import type { Scale } from './scale.ts';

function snapshot(id: number, at: number, round: number) {
  const spf = (id + round) % 7 !== 0;
  return {
    domain_id: id,
    fqdn: `d${id}.example`,
    source: 'guard_history',
    result: spf ? 'Protected' : 'Partially protected',
    protocols: { dmarc: true, spf, mta_sts: true, tls_rpt: true, bimi: false },
    protocols_passing: spf ? 4 : 3,
    total_protocols: 5,
    scanned_at: new Date(at).toISOString(),
  };
}

/** One health write of domain `id` (its snapshot of `round`) as the engine hands it to the mirror. */
function healthWrite(accountId: number, id: number, at: number, round: number) {
  return {
    accountId,
    domainId: id,
    signal: 'health' as const,
    payload: snapshot(id, at, round),
    fetchedAt: at,
  };
}

/** An account of the mirror listing domains `ids` (the health writes need their domains). */
function accountWithDomains(mirror: Mirror, ids: readonly number[], at: number): number {
  const { id: accountId } = mirror.upsertAccount({ label: 'bench', baseUrl: 'http://bench/api/v1' });
  mirror.writeSignal({
    accountId,
    domainId: null,
    signal: 'domains',
    payload: ids.map((id) => ({ id, fqdn: `d${id}.example` })),
    fetchedAt: at,
  });
  return accountId;
}

/** The engine's WriteBatch with no timer: the bench commits it by hand. */
const byHand = (mirror: Mirror) =>
  new WriteBatch(
    mirror,
    Infinity,
    () => undefined,
    () => () => undefined,
  );

/** The health writes of `ids` through `batch`, `perCommit` to a commit (one sync tick's writes a commit). */
function batchedWrites(
  batch: WriteBatch,
  accountId: number,
  ids: readonly number[],
  perCommit: number,
  at: number,
  round: number,
): void {
  const job = { key: 'bench', signal: 'health' } as SyncJob;
  for (let first = 0; first < ids.length; first += perCommit) {
    for (const id of ids.slice(first, first + perCommit))
      batch.add({ job, input: healthWrite(accountId, id, at, round), startedAt: at, fetchedAt: at });
    batch.commit();
  }
}

function perSecond(count: number, run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

/**
 * What the disk sees, whatever the machine's load: commits and WAL bytes per health write, one a commit
 * against five a commit (the WAL is not checkpointed meanwhile, so every frame is counted). Five writes in
 * one commit also write a page they share (sync states, indexes) once instead of five times.
 */
function walCost(dir: string, domains: number): { name: string; value: number; unit: string }[] {
  const file = join(dir, 'wal-cost.sqlite');
  let t = Date.parse('2026-01-01T00:00:00Z');
  const db = openMirrorDatabase(file);
  db.pragma('wal_autocheckpoint = 0');
  const mirror = new SqliteMirror(db, { now: () => t }, MIRROR_REGISTRY, DEFAULT_RULES);
  const ids = Array.from({ length: domains }, (_, i) => i + 1);
  const accountId = accountWithDomains(mirror, ids, t);
  const batch = byHand(mirror);
  const measure = (perCommit: number, round: number) => {
    t += 15 * 60_000;
    const commits = walCommits(file);
    const bytes = statSync(`${file}-wal`).size;
    batchedWrites(batch, accountId, ids, perCommit, t, round);
    return {
      commits: (walCommits(file) - commits) / ids.length,
      kib: (statSync(`${file}-wal`).size - bytes) / ids.length / 1024,
    };
  };
  measure(1, 1); // warm: every domain has a snapshot and a sync state
  const one = measure(1, 2);
  const five = measure(5, 3);
  mirror.close();
  return [
    { name: 'commits a health write, one a commit (before)', value: one.commits, unit: '' },
    { name: 'commits a health write, five a commit (after)', value: five.commits, unit: '' },
    { name: 'WAL written a health write, one a commit (before)', value: one.kib, unit: 'KiB' },
    { name: 'WAL written a health write, five a commit (after)', value: five.kib, unit: 'KiB' },
  ];
}

/** Mirror writes on a file vs raw inserts on a file, same journal and synchronous settings (smoke: a tenth). */
export async function benchMirrorFile(scale: Scale): Promise<void> {
  const domains = scale === 'smoke' ? 100 : 1_000;
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-bench-'));
  try {
    let t = Date.parse('2026-01-01T00:00:00Z');
    const mirror = openMirror(join(dir, 'mirror.sqlite'), { clock: { now: () => t } });
    const ids = Array.from({ length: domains }, (_, i) => i + 1);
    const accountId = accountWithDomains(mirror, ids, t);
    /** One timed round of domains writes, a quarter of an hour after the one before. */
    const timed = (write: (at: number) => void) => {
      t += 15 * 60_000;
      const at = t;
      return perSecond(domains, () => write(at));
    };
    const mirrorRates = [1, 2, 3].map((round) =>
      timed((at) => ids.forEach((id) => mirror.writeSignal(healthWrite(accountId, id, at, round)))),
    );
    // The engine's tick: five fetched signals committed together by its WriteBatch (no timer: committed by hand).
    const batch = byHand(mirror);
    const tickRates = [4, 5, 6].map((round) =>
      timed((at) => batchedWrites(batch, accountId, ids, 5, at, round)),
    );
    mirror.close();

    const raw = new Database(join(dir, 'raw.sqlite'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = FULL');
    raw.exec(`CREATE TABLE health_snapshots (domain_id INTEGER, scanned_at TEXT, result TEXT,
      protocols_json TEXT, protocols_passing INTEGER, total_protocols INTEGER, raw_json TEXT, fetched_at TEXT,
      PRIMARY KEY (domain_id, scanned_at))`);
    const insert = raw.prepare('INSERT OR REPLACE INTO health_snapshots VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const row = (id: number, at: number, round: number) => {
      const s = snapshot(id, at, round);
      insert.run(
        id,
        s.scanned_at,
        s.result,
        JSON.stringify(s.protocols),
        s.protocols_passing,
        5,
        JSON.stringify(s),
        s.scanned_at,
      );
    };
    const one = raw.transaction(row);
    const five = raw.transaction((first: number, at: number, round: number) => {
      for (let k = 0; k < 5; k++) row(ids[(first + k) % domains]!, at, round);
    });
    const rawRates: number[] = [];
    const batchRates: number[] = [];
    for (const round of [1, 2, 3]) {
      // Interleaved, so that a change in the machine's load falls on both alike.
      rawRates.push(timed((at) => ids.forEach((id) => one(id, at, round))));
      batchRates.push(
        timed((at) => {
          for (let first = 0; first < domains; first += 5) five(first, at, round);
        }),
      );
    }
    raw.close();
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const m = median(mirrorRates);
    const mt = median(tickRates);
    const r = median(rawRates);
    const r5 = median(batchRates);
    report(
      `mirror on a file vs raw better-sqlite3 on a file (WAL, synchronous=FULL both; ${domains} health snapshots; load average ${loadavg()[0]!.toFixed(1)})`,
      [
        { name: 'mirror writeSignal, one transaction each (before)', value: m, unit: '/s' },
        { name: 'mirror, the engine’s tick: five a commit (WriteBatch, after)', value: mt, unit: '/s' },
        { name: 'raw insert, one transaction each', value: r, unit: '/s' },
        { name: 'raw insert, five a transaction (a tick in one commit)', value: r5, unit: '/s' },
        { name: 'raw ÷ mirror, one transaction each (before)', value: r / m, unit: '×' },
        { name: 'raw ÷ mirror, five a transaction (after)', value: r5 / mt, unit: '×' },
        { name: 'mirror, five a commit ÷ one a commit', value: mt / m, unit: '×' },
        ...walCost(dir, domains / 5),
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
