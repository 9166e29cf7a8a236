import type { Database } from 'better-sqlite3';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

/** How a check's latest attempt came out. */
export type LiveCheckStatus = 'ok' | 'problem' | 'not_applicable' | 'unknown';

/** One check's latest result for one target (main/core/livechecks), as the screens and the runner read it. */
export interface LiveCheckRow {
  check: string;
  accountId: number;
  /** The domain's remote id; null for per-account checks. */
  domainId: number | null;
  fqdn: string | null;
  status: LiveCheckStatus;
  /** The attempt in words (what it saw, or why it could not look). */
  words: string;
  checkedAt: string;
  /** Since when the status and words have been what they are. */
  since: string;
  /** The last result a probe could take (kept through `unknown` attempts), and when. */
  result: unknown;
  resultAt: string | null;
  /** The DNS watch's value the check last ran after (a change makes it due). */
  dnsSeen: string | null;
}

/** One change in a check's history. */
export interface LiveCheckHistoryEntry {
  status: LiveCheckStatus;
  words: string;
  checkedAt: string;
  result: unknown;
}

/** Where a write lands: the check and its target's row ids in the mirror. */
export interface LiveCheckKey {
  check: string;
  accountId: number;
  /** The domain's row id (pk); null for per-account checks. */
  domainPk: number | null;
}

interface Row {
  check_name: string;
  account_id: number;
  remote_id: number | null;
  fqdn: string | null;
  status: LiveCheckStatus;
  words: string;
  checked_at: string;
  since: string;
  result_json: string | null;
  result_at: string | null;
  dns_seen: string | null;
}

const SELECT = `SELECT r.check_name, r.account_id, d.remote_id, d.fqdn, r.status, r.words, r.checked_at, r.since,
    r.result_json, r.result_at, r.dns_seen
  FROM live_check_results r LEFT JOIN domains d ON d.id = r.domain_id`;

function toRow(r: Row): LiveCheckRow {
  return {
    check: r.check_name,
    accountId: r.account_id,
    domainId: r.remote_id,
    fqdn: r.fqdn,
    status: r.status,
    words: r.words,
    checkedAt: r.checked_at,
    since: r.since,
    result: r.result_json === null ? null : (JSON.parse(r.result_json) as unknown),
    resultAt: r.result_at,
    dnsSeen: r.dns_seen,
  };
}

/** Changes kept per check and target: two years of a daily check changing every week. */
const HISTORY_KEPT = 100;

/** The live_check_results and live_check_history tables. */
export class LiveCheckStore {
  constructor(private readonly db: Database) {}

  /** The latest result of one check for one target, or null before its first attempt. */
  get(key: LiveCheckKey): LiveCheckRow | null {
    const row = prepared(
      this.db,
      `${SELECT} WHERE r.check_name = ? AND r.account_id = ? AND ifnull(r.domain_id, 0) = ?`,
    ).get(key.check, key.accountId, key.domainPk ?? 0) as Row | undefined;
    return row ? toRow(row) : null;
  }

  /** Stores an attempt; a change of status or words also goes to the history. */
  put(
    key: LiveCheckKey,
    attempt: { status: LiveCheckStatus; words: string; result?: unknown; dnsSeen: string | null },
    at: string,
  ): void {
    const old = this.get(key);
    const changed = !old || old.status !== attempt.status || old.words !== attempt.words;
    const hasResult = attempt.result !== undefined;
    const resultJson = hasResult ? JSON.stringify(attempt.result) : null;
    const params = {
      check: key.check,
      accountId: key.accountId,
      domainPk: key.domainPk,
      status: attempt.status,
      words: attempt.words,
      at,
      since: changed ? at : old.since,
      resultJson: hasResult ? resultJson : old?.result === undefined ? null : JSON.stringify(old.result),
      resultAt: hasResult ? at : (old?.resultAt ?? null),
      dnsSeen: attempt.dnsSeen,
    };
    if (old) {
      prepared(
        this.db,
        `UPDATE live_check_results SET status = @status, words = @words, checked_at = @at, since = @since,
           result_json = @resultJson, result_at = @resultAt, dns_seen = @dnsSeen
         WHERE check_name = @check AND account_id = @accountId AND ifnull(domain_id, 0) = ifnull(@domainPk, 0)`,
      ).run(params);
    } else {
      prepared(
        this.db,
        `INSERT INTO live_check_results (check_name, account_id, domain_id, status, words, checked_at, since,
           result_json, result_at, dns_seen)
         VALUES (@check, @accountId, @domainPk, @status, @words, @at, @since, @resultJson, @resultAt, @dnsSeen)`,
      ).run(params);
    }
    if (!changed) return;
    prepared(
      this.db,
      `INSERT INTO live_check_history (check_name, account_id, domain_id, status, words, checked_at, result_json)
         VALUES (@check, @accountId, @domainPk, @status, @words, @at, @resultJson)`,
    ).run(params);
    prepared(
      this.db,
      `DELETE FROM live_check_history WHERE check_name = @check AND account_id = @accountId
         AND ifnull(domain_id, 0) = ifnull(@domainPk, 0) AND id <= (
           SELECT id FROM live_check_history WHERE check_name = @check AND account_id = @accountId
             AND ifnull(domain_id, 0) = ifnull(@domainPk, 0) ORDER BY id DESC LIMIT 1 OFFSET ${HISTORY_KEPT})`,
    ).run(params);
  }

  /** Every check's latest result for a domain (by its pk), in check order. */
  ofDomain(domainPk: number): LiveCheckRow[] {
    return (
      prepared(this.db, `${SELECT} WHERE r.domain_id = ? ORDER BY r.check_name`).all(domainPk) as Row[]
    ).map(toRow);
  }

  /** Every latest result of watched domains and accounts (an account's, or all), for the CLI and metrics. */
  all(accountId?: number): LiveCheckRow[] {
    return (
      prepared(
        this.db,
        `${SELECT} WHERE (r.domain_id IS NULL OR d.removed_at IS NULL) AND (? IS NULL OR r.account_id = ?)
           ORDER BY r.account_id, d.fqdn, r.check_name`,
      ).all(accountId ?? null, accountId ?? null) as Row[]
    ).map(toRow);
  }

  /** The changes of one check for one target, newest first. */
  history(key: LiveCheckKey, limit = HISTORY_KEPT): LiveCheckHistoryEntry[] {
    const rows = prepared(
      this.db,
      `SELECT status, words, checked_at, result_json FROM live_check_history
         WHERE check_name = ? AND account_id = ? AND ifnull(domain_id, 0) = ? ORDER BY id DESC LIMIT ?`,
    ).all(key.check, key.accountId, key.domainPk ?? 0, limit) as {
      status: LiveCheckStatus;
      words: string;
      checked_at: string;
      result_json: string | null;
    }[];
    return rows.map((r) => ({
      status: r.status,
      words: r.words,
      checkedAt: r.checked_at,
      result: r.result_json === null ? null : (JSON.parse(r.result_json) as unknown),
    }));
  }
}
