import type { Database } from 'better-sqlite3';
import type { SendingSource } from '../signals/sendingSources.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

// Each answer of sending-services and failed-sources replaces the last one for its window (source_entries);
// the polls table keeps what every answer said about every sender, so the app can show when a sender's
// volume or compliance changed. Consecutive polls that say the same thing are one row (first and last time
// seen): the service recomputes from daily reports, so hourly polls mostly repeat, and a year of history
// stays a few rows per sender per day.

/**
 * How much sender history is kept. By age: a poll row whose last confirmation is older than 400 days goes (a
 * year of trend, the longest window the screens offer, plus a month). By count: a sender keeps its newest
 * 1,000 rows per answer kind — identical polls are one row, so that is years of daily changes; only a sender
 * whose figures change every poll reaches it (1,000 hourly changes ≈ 6 weeks). Worst case per domain:
 * senders × 2 kinds × 1,000 rows. Pruned in the write transaction of each answer (see recordSenderPoll).
 */
export const SENDER_HISTORY_BOUND = { maxAgeDays: 400, maxRowsPerSender: 1_000 } as const;

/** Which answer: sending-services (every sender) or failed-sources (failing ones, threats flagged). */
export type SourceKind = 'sending' | 'failed';

/** One sender as one or more identical consecutive polls saw it. */
export interface SenderPoll {
  kind: SourceKind;
  /** First poll that said this. */
  at: string;
  /** Last poll that said this. */
  lastAt: string;
  windowStart: string;
  windowEnd: string;
  total: number | null;
  dmarcPass: number | null;
  dmarcFail: number | null;
  /** 0–100. */
  compliance: number | null;
  status: string | null;
  threat: boolean;
}

/** A sender of the domain now, with its trend. */
export interface SenderSummary {
  name: string;
  /** Failing: its status says failing or partial (see isFailing). */
  failing: boolean;
  threat: boolean;
  status: string | null;
  total: number | null;
  dmarcPass: number | null;
  dmarcFail: number | null;
  compliance: number | null;
  /** The sender's polls, oldest first (the last `trendPoints` of them). */
  trend: SenderPoll[];
}

interface PollRow {
  kind: SourceKind;
  source_name: string;
  fetched_at: string;
  last_fetched_at: string;
  window_start: string;
  window_end: string;
  total_count: number | null;
  dmarc_pass: number | null;
  dmarc_fail: number | null;
  compliance: number | null;
  status: string | null;
  is_registered_threat: number;
}

const orNull = <T>(v: T | null | undefined): T | null => v ?? null;

function toPoll(r: PollRow): SenderPoll {
  return {
    kind: r.kind,
    at: r.fetched_at,
    lastAt: r.last_fetched_at,
    windowStart: r.window_start,
    windowEnd: r.window_end,
    total: r.total_count,
    dmarcPass: r.dmarc_pass,
    dmarcFail: r.dmarc_fail,
    compliance: r.compliance,
    status: r.status,
    threat: r.is_registered_threat === 1,
  };
}

/** Records what one answer said about each sender (inside the signal's write transaction). */
export function recordSenderPoll(
  db: Database,
  domainPk: number,
  kind: SourceKind,
  sources: readonly SendingSource[],
  fetchedAt: string,
  window: { start: string; end: string },
): void {
  const last = prepared(
    db,
    `SELECT rowid AS id, total_count, dmarc_pass, dmarc_fail, compliance, status, is_registered_threat,
         window_start, window_end
       FROM source_polls WHERE domain_id = ? AND kind = ? AND source_name = ?
       ORDER BY fetched_at DESC LIMIT 1`,
  );
  const extend = prepared(db, 'UPDATE source_polls SET last_fetched_at = ? WHERE rowid = ?');
  const insert = prepared(
    db,
    `INSERT INTO source_polls (domain_id, kind, source_name, fetched_at, last_fetched_at, window_start,
         window_end, total_count, dmarc_pass, dmarc_fail, compliance, status, is_registered_threat)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (domain_id, kind, source_name, fetched_at) DO NOTHING`,
  );
  const seen = new Set<string>();
  const grown: string[] = [];
  for (const s of sources) {
    // One answer lists a sender once; a repeated name (malformed answer) keeps the first entry.
    if (seen.has(s.source_name)) continue;
    seen.add(s.source_name);
    const values = {
      total_count: orNull(s.total_count),
      dmarc_pass: orNull(s.dmarc?.pass),
      dmarc_fail: orNull(s.dmarc?.fail),
      compliance: orNull(s.compliance),
      status: orNull(s.status),
      is_registered_threat: s.is_registered_threat === true ? 1 : 0,
    };
    const prev = last.get(domainPk, kind, s.source_name) as
      (typeof values & { id: number; window_start: string; window_end: string }) | undefined;
    const same =
      prev !== undefined &&
      prev.window_start === window.start &&
      prev.window_end === window.end &&
      (Object.keys(values) as (keyof typeof values)[]).every((k) => prev[k] === values[k]);
    if (same) {
      extend.run(fetchedAt, prev.id);
      continue;
    }
    grown.push(s.source_name);
    insert.run(
      domainPk,
      kind,
      s.source_name,
      fetchedAt,
      fetchedAt,
      window.start,
      window.end,
      values.total_count,
      values.dmarc_pass,
      values.dmarc_fail,
      values.compliance,
      values.status,
      values.is_registered_threat,
    );
  }
  pruneSenderPolls(db, domainPk, kind, grown, fetchedAt);
}

/**
 * Drops the domain's poll rows of this kind older than the age bound, and the rows of each sender that just
 * gained one beyond the count bound (oldest first). `now` is the answer's time, not the wall clock.
 */
function pruneSenderPolls(
  db: Database,
  domainPk: number,
  kind: SourceKind,
  senders: readonly string[],
  now: string,
  bound: { maxAgeDays: number; maxRowsPerSender: number } = SENDER_HISTORY_BOUND,
): void {
  const cutoff = new Date(Date.parse(now) - bound.maxAgeDays * 86_400_000).toISOString();
  if (!Number.isNaN(Date.parse(cutoff)))
    prepared(db, 'DELETE FROM source_polls WHERE domain_id = ? AND kind = ? AND last_fetched_at < ?').run(
      domainPk,
      kind,
      cutoff,
    );
  const overflow = prepared(
    db,
    `DELETE FROM source_polls WHERE domain_id = @d AND kind = @k AND source_name = @s AND fetched_at <= (
       SELECT fetched_at FROM source_polls WHERE domain_id = @d AND kind = @k AND source_name = @s
       ORDER BY fetched_at DESC LIMIT 1 OFFSET @keep)`,
  );
  for (const name of senders) overflow.run({ d: domainPk, k: kind, s: name, keep: bound.maxRowsPerSender });
}

/** Every poll of one sender, oldest first (both answers; at the same time sending-services wins). */
export function senderPolls(db: Database, domainPk: number, name: string, limit = 10_000): SenderPoll[] {
  const rows = prepared(
    db,
    `SELECT * FROM (SELECT * FROM source_polls WHERE domain_id = ? AND source_name = ?
       ORDER BY fetched_at DESC LIMIT ?) ORDER BY fetched_at`,
  ).all(domainPk, name, limit * 2) as PollRow[];
  return mergeKinds(rows.map(toPoll)).slice(-limit);
}

const sameFigures = (a: SenderPoll, b: SenderPoll) =>
  a.windowStart === b.windowStart &&
  a.windowEnd === b.windowEnd &&
  a.total === b.total &&
  a.dmarcPass === b.dmarcPass &&
  a.dmarcFail === b.dmarcFail &&
  a.compliance === b.compliance &&
  a.status === b.status &&
  a.threat === b.threat;

// Both answers describe the same sender in the same window: one series, where a poll of either kind that
// repeats the figures before it only extends that point.
function mergeKinds(polls: SenderPoll[]): SenderPoll[] {
  const byTime = new Map<string, SenderPoll>();
  for (const p of polls) {
    const there = byTime.get(p.at);
    if (!there || (there.kind === 'failed' && p.kind === 'sending')) byTime.set(p.at, p);
  }
  const merged: SenderPoll[] = [];
  for (const p of [...byTime.values()].sort((a, b) => Date.parse(a.at) - Date.parse(b.at))) {
    const prev = merged.at(-1);
    if (prev && sameFigures(prev, p)) {
      if (Date.parse(p.lastAt) > Date.parse(prev.lastAt))
        merged[merged.length - 1] = { ...prev, lastAt: p.lastAt };
    } else merged.push(p);
  }
  return merged;
}

/**
 * Failing: the service says failing or partial. Failed-sources lists every sender with any failed message
 * (a compliant service with 16 forwarded failures among 60,000), so being listed alone says so only when
 * the answer gives no status.
 */
function isFailing(status: string | null, listedAsFailed: boolean): boolean {
  return status === 'failing' || status === 'partial' || (status === null && listedAsFailed);
}

interface EntryRow {
  source_name: string;
  total_count: number | null;
  dmarc_pass: number | null;
  dmarc_fail: number | null;
  compliance: number | null;
  status: string | null;
  is_registered_threat: number;
}

function latestEntries(db: Database, domainPk: number, kind: SourceKind): EntryRow[] {
  const win = prepared(
    db,
    `SELECT window_start, window_end FROM source_windows WHERE domain_id = ? AND kind = ?
       ORDER BY fetched_at DESC LIMIT 1`,
  ).get(domainPk, kind) as { window_start: string; window_end: string } | undefined;
  if (!win) return [];
  return prepared(
    db,
    `SELECT source_name, total_count, dmarc_pass, dmarc_fail, compliance, status, is_registered_threat
       FROM source_entries WHERE domain_id = ? AND kind = ? AND window_start = ? AND window_end = ?
       ORDER BY position`,
  ).all(domainPk, kind, win.window_start, win.window_end) as EntryRow[];
}

/**
 * The domain's senders as the latest answers list them — every sender, failing ones marked, registered
 * threats first, then failing ones, then by volume — each with its last `trendPoints` polls.
 */
export function domainSenders(db: Database, domainPk: number, trendPoints = 60): SenderSummary[] {
  const failed = latestEntries(db, domainPk, 'failed');
  const failedNames = new Set(failed.map((r) => r.source_name));
  const byName = new Map<string, SenderSummary>();
  for (const r of [...latestEntries(db, domainPk, 'sending'), ...failed]) {
    const there = byName.get(r.source_name);
    const threat = r.is_registered_threat === 1 || there?.threat === true;
    if (there) {
      there.threat = threat;
      continue;
    }
    byName.set(r.source_name, {
      name: r.source_name,
      failing: isFailing(r.status, failedNames.has(r.source_name)),
      threat,
      status: r.status,
      total: r.total_count,
      dmarcPass: r.dmarc_pass,
      dmarcFail: r.dmarc_fail,
      compliance: r.compliance,
      trend: [],
    });
  }
  for (const sender of byName.values()) sender.trend = senderPolls(db, domainPk, sender.name, trendPoints);
  return [...byName.values()].sort(
    (a, b) =>
      Number(b.threat) - Number(a.threat) ||
      Number(b.failing) - Number(a.failing) ||
      (b.total ?? 0) - (a.total ?? 0) ||
      a.name.localeCompare(b.name),
  );
}
