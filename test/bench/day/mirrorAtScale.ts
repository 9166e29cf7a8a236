/**
 * The mirror at 1,000 domains: a realistic sync batch (one health snapshot per domain, each write its own
 * transaction with the alert rules, as the sync does) against raw better-sqlite3 prepared inserts of the
 * same rows, one transaction each, in the same run; then overview() and one domain's 365-day health
 * history read back from a mirror holding history for every domain.
 */
import Database from 'better-sqlite3';
import { openMirror } from '../../../main/core/mirror/index.ts';
import { STATUS_MODEL } from '../../../main/core/status/statusModel.ts';
import type { Mirror } from '../../../main/core/mirror/types.ts';
import { JobBook } from '../../../main/core/sync/jobBook.ts';
import { CORE_SIGNALS, HISTORY_SIGNALS } from '../../../main/core/sync/syncJobs.ts';
import { timeIt } from '../measure.ts';

const DAY = 86_400_000;

/** Figures of the mirror at scale. */
export interface MirrorFigures {
  domains: number;
  mirrorWritesPerSecond: number;
  rawInsertsPerSecond: number;
  /** raw ÷ mirror: how many times slower the mirror's write path is than bare inserts. */
  rawOverMirror: number;
  overviewMs: number;
  history365Ms: number;
  history365Points: number;
  /** What a sync tick plans from at 1,000 domains: jobs from the mirror, the tier allocation, the plan. */
  tickPlanMs: number;
}

/**
 * One tick's planning as AccountSyncer.tickOnce does it (the job book), after the last tick wrote a few
 * states: every (domain, signal) has a sync state, as after the first sync.
 */
async function tickPlanning(mirror: Mirror, accountId: number, domains: { id: number }[], now: () => number) {
  for (const d of domains)
    for (const signal of [...CORE_SIGNALS, ...HISTORY_SIGNALS])
      mirror.setNextDue({ accountId, domainId: d.id, signal, nextDueAt: null });
  let i = 0;
  const book = new JobBook(mirror, accountId, new Map());
  return timeIt(
    () => {
      // The last tick wrote a few states.
      for (let k = 0; k < 5; k++)
        mirror.setNextDue({
          accountId,
          domainId: domains[i++ % domains.length]!.id,
          signal: 'health',
          nextDueAt: null,
        });
      book.plan(now(), { capacityPerMinute: 54, spendable: 5, burst: 6 });
    },
    { iterations: 20, rounds: 3 },
  );
}

function snapshot(id: number, fqdn: string, at: number, round: number) {
  const spf = (id + round) % 7 !== 0;
  return {
    domain_id: id,
    fqdn,
    source: 'guard_history',
    result: spf ? 'Protected' : 'Partially protected',
    protocols: { dmarc: true, spf, mta_sts: true, tls_rpt: true, bimi: false },
    protocols_passing: spf ? 4 : 3,
    total_protocols: 5,
    scanned_at: new Date(at).toISOString(),
  };
}

/** Measures the mirror at `count` domains with a year of daily health history for each. */
export async function mirrorAtScale(count = 1_000): Promise<MirrorFigures> {
  let t = Date.parse('2026-01-01T00:00:00Z');
  const mirror = openMirror(':memory:', { clock: { now: () => t }, status: STATUS_MODEL });
  const account = mirror.upsertAccount({ label: 'bench', baseUrl: 'http://bench/api/v1' });
  const domains = Array.from({ length: count }, (_, i) => ({ id: i + 1, fqdn: `d${i + 1}.example` }));
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: domains,
    fetchedAt: t,
  });

  // Daily scans: the 90 days the backfill fetches for every domain, a full year for one in ten (kept that
  // long), which bounds the set-up time while the tables hold over 100,000 history rows.
  for (const d of domains) {
    const days = d.id % 10 === 0 ? 365 : 90;
    const rows = Array.from({ length: days }, (_, day) => {
      const {
        domain_id: _id,
        fqdn: _f,
        source: _s,
        ...row
      } = snapshot(d.id, d.fqdn, t - (days - day) * DAY, day);
      return row;
    }).reverse();
    mirror.writeSignal({
      accountId: account.id,
      domainId: d.id,
      signal: 'health_history',
      payload: rows,
      fetchedAt: t,
    });
  }

  let round = 0;
  const batch = () => {
    round += 1;
    t += 15 * 60_000;
    for (const d of domains) {
      mirror.writeSignal({
        accountId: account.id,
        domainId: d.id,
        signal: 'health',
        payload: snapshot(d.id, d.fqdn, t, round),
        fetchedAt: t,
      });
    }
  };
  const mirrorBatch = await timeIt(batch, { rounds: 3 });

  // The same rows into a bare table, one prepared insert per transaction (the mirror's unit of write).
  const raw = new Database(':memory:');
  raw.exec(`CREATE TABLE health_snapshots (domain_id INTEGER, scanned_at TEXT, result TEXT,
    protocols_json TEXT, protocols_passing INTEGER, total_protocols INTEGER, raw_json TEXT, fetched_at TEXT,
    PRIMARY KEY (domain_id, scanned_at))`);
  const insert = raw.prepare('INSERT OR REPLACE INTO health_snapshots VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const one = raw.transaction((row: ReturnType<typeof snapshot>, at: string) =>
    insert.run(
      row.domain_id,
      row.scanned_at,
      row.result,
      JSON.stringify(row.protocols),
      row.protocols_passing,
      row.total_protocols,
      JSON.stringify(row),
      at,
    ),
  );
  let rawRound = 0;
  const rawBatch = await timeIt(
    () => {
      rawRound += 1;
      const at = new Date(t + rawRound * 60_000).toISOString();
      for (const d of domains) one(snapshot(d.id, d.fqdn, t + rawRound * 60_000, rawRound), at);
    },
    { rounds: 3 },
  );
  raw.close();

  const overview = await timeIt(() => mirror.overview(account.id), { iterations: 5, rounds: 3 });
  const domainId = domains[Math.floor(count / 20) * 10 - 1]!.id; // one of the domains with a year
  let points = 0;
  const history = await timeIt(
    () => {
      points = mirror.history('health', {
        accountId: account.id,
        domainId,
        since: new Date(t - 365 * DAY).toISOString(),
      }).length;
    },
    { iterations: 20, rounds: 3 },
  );
  const tick = await tickPlanning(mirror, account.id, domains, () => t);
  mirror.close();
  const mirrorPerSecond = count / (mirrorBatch.medianMs / 1000);
  const rawPerSecond = count / (rawBatch.medianMs / 1000);
  return {
    domains: count,
    mirrorWritesPerSecond: mirrorPerSecond,
    rawInsertsPerSecond: rawPerSecond,
    rawOverMirror: rawPerSecond / mirrorPerSecond,
    overviewMs: overview.perOpMs,
    history365Ms: history.perOpMs,
    history365Points: points,
    tickPlanMs: tick.perOpMs,
  };
}
