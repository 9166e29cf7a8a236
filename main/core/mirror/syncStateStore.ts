import type { Database } from 'better-sqlite3';
import { SIGNALS, type SignalName } from '../signals/catalog.ts';
import type { RowChanges, RowCursor, SyncError, SyncErrorInput, SyncState } from './types.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';
import { AccountRowCache, type CachedRow } from './rowCache.ts';

interface SyncRow {
  id: number;
  account_id: number;
  domain_id: number | null;
  remote_id: number | null;
  fqdn: string | null;
  signal: SignalName;
  last_success_at: string | null;
  last_attempt_at: string | null;
  error_code: string | null;
  error_status: number | null;
  error_message: string | null;
  error_request_id: string | null;
  error_retryable: number | null;
  error_missing_scope: string | null;
  error_at: string | null;
  consecutive_failures: number;
  next_due_at: string | null;
  period_seconds: number;
}

/** A sync state with the local domain key the mirror joins on. */
export type StoredSyncState = SyncState & { domainPk: number | null };

const SELECT = `SELECT s.*, d.remote_id, d.fqdn FROM sync_state s LEFT JOIN domains d ON d.id = s.domain_id`;

/** The last error a sync state row holds, or null. */
export function syncErrorOf(
  row: Pick<
    SyncRow,
    | 'error_code'
    | 'error_status'
    | 'error_message'
    | 'error_request_id'
    | 'error_retryable'
    | 'error_missing_scope'
    | 'error_at'
    | 'last_attempt_at'
  >,
): SyncError | null {
  return row.error_code === null
    ? null
    : {
        status: row.error_status ?? 0,
        code: row.error_code,
        message: row.error_message ?? '',
        requestId: row.error_request_id ?? '',
        retryable: row.error_retryable === 1,
        missingScope: row.error_missing_scope,
        at: row.error_at ?? row.last_attempt_at ?? '',
      };
}

function toState(row: SyncRow): StoredSyncState {
  const lastError = syncErrorOf(row);
  return {
    accountId: row.account_id,
    domainId: row.remote_id,
    domainPk: row.domain_id,
    fqdn: row.fqdn,
    signal: row.signal,
    lastSuccessAt: row.last_success_at,
    lastAttemptAt: row.last_attempt_at,
    lastError,
    consecutiveFailures: row.consecutive_failures,
    nextDueAt: row.next_due_at,
    periodSeconds: row.period_seconds,
  };
}

/** Strip the local key for callers outside the mirror. */
export function publicSyncState({ domainPk: _pk, ...state }: StoredSyncState): SyncState {
  return state;
}

const publicCopies = new WeakMap<StoredSyncState, SyncState>();

/**
 * publicSyncState of a kept (frozen, shared) state, made once per state: the engine reads 6,000 of them a
 * tick at 1,000 domains, and the same object for an unchanged state lets it keep what it derived from it.
 */
export function sharedPublicSyncState(state: StoredSyncState): SyncState {
  let copy = publicCopies.get(state);
  if (!copy) {
    copy = Object.freeze(publicSyncState(state));
    if (Object.isFrozen(state)) publicCopies.set(state, copy);
  }
  return copy;
}

const cached = (row: SyncRow): CachedRow<StoredSyncState> => ({
  id: row.id,
  accountId: row.account_id,
  row: toState(row),
});

/** The list's order: the account's own states first, then by domain name and signal (as ORDER BY sorts). */
function byNameAndSignal(a: StoredSyncState, b: StoredSyncState): number {
  if (a.fqdn !== b.fqdn) {
    if (a.fqdn === null) return -1;
    if (b.fqdn === null) return 1;
    return a.fqdn < b.fqdn ? -1 : 1;
  }
  return a.signal < b.signal ? -1 : a.signal > b.signal ? 1 : 0;
}

/** One row per (account, domain or account-level, signal). */
export class SyncStateStore {
  /** The engine reads every state of the account each tick; this keeps them between ticks. */
  private readonly cache: AccountRowCache<StoredSyncState>;

  constructor(private readonly db: Database) {
    this.cache = new AccountRowCache(db, {
      loadAll: (accountId) =>
        (
          prepared(this.db, `${SELECT} WHERE s.account_id = ? ORDER BY d.fqdn, s.signal`).all(
            accountId,
          ) as SyncRow[]
        ).map(cached),
      loadOne: (id) => {
        const row = prepared(this.db, `${SELECT} WHERE s.id = ?`).get(id) as SyncRow | undefined;
        return row && cached(row);
      },
      compare: byNameAndSignal,
    });
  }

  /** Everything of the account may have changed: its domain list was written, or the account removed. */
  invalidate(accountId?: number): void {
    this.cache.invalidate(accountId);
  }

  private ensure(accountId: number, domainPk: number | null, signal: SignalName): number {
    const existing = prepared(
      this.db,
      'SELECT id FROM sync_state WHERE account_id = ? AND ifnull(domain_id, 0) = ifnull(?, 0) AND signal = ?',
    ).get(accountId, domainPk, signal) as { id: number } | undefined;
    // Every caller writes the row next: the cached copy re-reads it on the next list.
    const id =
      existing?.id ??
      Number(
        prepared(
          this.db,
          'INSERT INTO sync_state (account_id, domain_id, signal, period_seconds) VALUES (?, ?, ?, ?)',
        ).run(accountId, domainPk, signal, SIGNALS[signal].periodSeconds).lastInsertRowid,
      );
    this.cache.touch(accountId, id);
    return id;
  }

  /** The state, or undefined when the signal was never attempted. */
  find(accountId: number, domainPk: number | null, signal: SignalName): StoredSyncState | undefined {
    const row = prepared(
      this.db,
      `${SELECT} WHERE s.account_id = ? AND ifnull(s.domain_id, 0) = ifnull(?, 0) AND s.signal = ?`,
    ).get(accountId, domainPk, signal) as SyncRow | undefined;
    return row && toState(row);
  }

  /** Every state of an account (or of every account). The states are frozen: they are shared. */
  list(accountId?: number): StoredSyncState[] {
    if (accountId !== undefined) return this.cache.get(accountId);
    const rows = prepared(this.db, `${SELECT} ORDER BY s.account_id, d.fqdn, s.signal`).all() as SyncRow[];
    return rows.map(toState);
  }

  /** The account's states written since `cursor`, or all of them (rowCache.ts, changesSince). */
  changesSince(accountId: number, cursor: RowCursor | null): RowChanges<StoredSyncState> {
    return this.cache.changesSince(accountId, cursor);
  }

  /** Every state of one domain of an account, by signal. */
  listForDomain(accountId: number, domainPk: number): StoredSyncState[] {
    const rows = prepared(
      this.db,
      `${SELECT} WHERE s.account_id = ? AND s.domain_id = ? ORDER BY s.signal`,
    ).all(accountId, domainPk) as SyncRow[];
    return rows.map(toState);
  }

  /** A success: fresh data, no error, failures reset; next due at nextDueAt or at + period. */
  success(
    accountId: number,
    domainPk: number | null,
    signal: SignalName,
    at: string,
    nextDueAt: string | null,
  ): void {
    const id = this.ensure(accountId, domainPk, signal);
    prepared(
      this.db,
      `UPDATE sync_state SET last_success_at = @at, last_attempt_at = @at, error_code = NULL, error_status = NULL,
           error_message = NULL, error_request_id = NULL, error_retryable = NULL, error_missing_scope = NULL,
           error_at = NULL, consecutive_failures = 0,
           next_due_at = coalesce(@next, strftime('%Y-%m-%dT%H:%M:%fZ', @at, '+' || period_seconds || ' seconds'))
         WHERE id = @id`,
    ).run({ id, at, next: nextDueAt });
  }

  /**
   * A problem with data that was stored all the same (entries of a list skipped): kept as the state's error,
   * in words, without counting a failure or moving the next fetch.
   */
  note(
    accountId: number,
    domainPk: number | null,
    signal: SignalName,
    error: SyncErrorInput,
    at: string,
  ): void {
    const id = this.ensure(accountId, domainPk, signal);
    prepared(
      this.db,
      `UPDATE sync_state SET error_code = @code, error_status = @status, error_message = @message,
           error_request_id = @requestId, error_retryable = @retryable, error_missing_scope = NULL, error_at = @at
         WHERE id = @id`,
    ).run({
      id,
      at,
      code: error.code,
      status: error.status,
      message: error.message,
      requestId: error.requestId,
      retryable: error.retryable ? 1 : 0,
    });
  }

  /** A failure: the error is recorded, failures counted; the data is not touched. */
  failure(
    accountId: number,
    domainPk: number | null,
    signal: SignalName,
    error: SyncErrorInput,
    at: string,
    nextDueAt: string | null,
  ): void {
    const id = this.ensure(accountId, domainPk, signal);
    prepared(
      this.db,
      `UPDATE sync_state SET last_attempt_at = @at, error_code = @code, error_status = @status,
           error_message = @message, error_request_id = @requestId, error_retryable = @retryable,
           error_missing_scope = @missingScope, error_at = @at, consecutive_failures = consecutive_failures + 1,
           next_due_at = coalesce(@next, next_due_at)
         WHERE id = @id`,
    ).run({
      id,
      at,
      code: String(error.code),
      status: Number.isFinite(error.status) ? error.status : 0,
      message: String(error.message),
      requestId: String(error.requestId ?? ''),
      retryable: error.retryable ? 1 : 0,
      missingScope: error.missingScope ?? null,
      next: nextDueAt,
    });
  }

  /** Lifts the hold of every signal of the account stopped for a missing scope (they are due at once). */
  clearScopeHolds(accountId: number): void {
    this.cache.invalidate(accountId);
    prepared(
      this.db,
      `UPDATE sync_state SET next_due_at = NULL WHERE account_id = ? AND error_code = 'insufficient_scope'`,
    ).run(accountId);
  }

  /** Set the next due time, and the period when given. */
  setNextDue(
    accountId: number,
    domainPk: number | null,
    signal: SignalName,
    nextDueAt: string | null,
    periodSeconds: number | undefined,
  ): void {
    const id = this.ensure(accountId, domainPk, signal);
    prepared(
      this.db,
      'UPDATE sync_state SET next_due_at = ?, period_seconds = coalesce(?, period_seconds) WHERE id = ?',
    ).run(nextDueAt, periodSeconds ?? null, id);
  }
}
