import type { Database } from 'better-sqlite3';
import type { RowChanges, RowCursor } from './types.ts';

/** A row as the cache keeps it: its table id and the mapped, frozen value. */
export interface CachedRow<T> {
  id: number;
  accountId: number;
  row: T;
}

interface AccountList<T> {
  entries: CachedRow<T>[];
  position: Map<number, number>;
  rows: T[];
  dirty: Set<number>;
  /** Rows appeared since the last sort (they sit at the end until `get` needs the order). */
  unsorted: boolean;
  /** Which build of the copy this is: a reader's cursor from another build must read the list whole. */
  epoch: number;
  /** Ids of the rows re-read since the build, in order (what changesSince serves). */
  log: number[];
}

/**
 * Per-account copies of a list the sync engine reads every 5 s (the domains, the sync states): at 1,000
 * domains reading and mapping 6,000 sync states again cost ~17 ms a tick. The store that owns the table
 * calls `touch` after writing one row (re-read on the next `get`) or `invalidate` after a wider change.
 *
 * Other connections (another process: `authwatch sync`, a second window) are noticed through SQLite's
 * `data_version`, which changes when any other connection commits and never for this one's own writes.
 * Inside a transaction nothing is served from or kept in the copy: the transaction may still roll back.
 */
export class AccountRowCache<T> {
  private readonly lists = new Map<number, AccountList<T>>();
  private dataVersion: number | null = null;
  private epochs = 0;

  constructor(
    private readonly db: Database,
    private readonly source: {
      /** Every row of the account, in the list's order. */
      loadAll(accountId: number): CachedRow<T>[];
      /** One row by id, or undefined when it is gone. */
      loadOne(id: number): CachedRow<T> | undefined;
      /** The list's order (rows that appeared are placed with it). */
      compare(a: T, b: T): number;
    },
  ) {}

  /** The account's rows in order (a new array; the rows themselves are shared and frozen). */
  get(accountId: number): T[] {
    if (this.db.inTransaction) return this.source.loadAll(accountId).map((e) => e.row);
    return this.sorted(this.current(accountId)).rows.slice();
  }

  /**
   * The rows written since `cursor` (each once, newest copy), or the whole list when there is no cursor or
   * the copy was rebuilt since (another process committed, a wider change): a reader that keeps its own
   * view of the list (the sync's job book) then costs what changed, not the list's length.
   */
  changesSince(accountId: number, cursor: RowCursor | null): RowChanges<T> {
    if (this.db.inTransaction)
      return { full: true, rows: this.source.loadAll(accountId).map((e) => e.row), cursor: null };
    const list = this.current(accountId);
    const next = { epoch: list.epoch, offset: list.log.length };
    if (!cursor || cursor.epoch !== list.epoch || cursor.offset > list.log.length)
      return { full: true, rows: list.rows.slice(), cursor: next };
    const ids = new Set(list.log.slice(cursor.offset));
    const rows: T[] = [];
    for (const id of ids) rows.push(list.rows[list.position.get(id)!]!);
    return { full: false, rows, cursor: next };
  }

  private current(accountId: number): AccountList<T> {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version !== this.dataVersion) {
      this.lists.clear();
      this.dataVersion = version;
    }
    let list = this.lists.get(accountId);
    if (list && list.dirty.size > 0 && !this.refresh(accountId, list)) list = undefined;
    // The change log is kept to a few times the list: past that a reader reads the list whole once.
    if (list && list.log.length > 4 * list.entries.length + 1_000) list = undefined;
    if (!list) {
      list = this.build(this.source.loadAll(accountId));
      this.lists.set(accountId, list);
    }
    return list;
  }

  /** One row of the account was written (or inserted). */
  touch(accountId: number, id: number): void {
    this.lists.get(accountId)?.dirty.add(id);
  }

  /** Anything of the account (or of every account) may have changed. */
  invalidate(accountId?: number): void {
    if (accountId === undefined) this.lists.clear();
    else this.lists.delete(accountId);
  }

  private build(entries: CachedRow<T>[]): AccountList<T> {
    for (const entry of entries) Object.freeze(entry.row);
    return {
      entries,
      position: new Map(entries.map((e, i) => [e.id, i])),
      rows: entries.map((e) => e.row),
      dirty: new Set(),
      unsorted: false,
      epoch: ++this.epochs,
      log: [],
    };
  }

  /** Re-reads the touched rows into the copy; false when one vanished or moved account (reload instead). */
  private refresh(accountId: number, list: AccountList<T>): boolean {
    for (const id of list.dirty) {
      const entry = this.source.loadOne(id);
      const at = list.position.get(id);
      if (!entry || entry.accountId !== accountId) {
        if (at !== undefined) return false;
        continue;
      }
      Object.freeze(entry.row);
      if (at === undefined) {
        list.position.set(id, list.entries.length);
        list.entries.push(entry);
        list.rows.push(entry.row);
        list.unsorted = true;
      } else {
        list.entries[at] = entry;
        list.rows[at] = entry.row;
      }
      list.log.push(id);
    }
    list.dirty.clear();
    return true;
  }

  /**
   * Puts rows that appeared in the list's order (for `get`; changesSince needs no order, so the first sync,
   * where every tick adds rows, does not sort the whole list every tick).
   */
  private sorted(list: AccountList<T>): AccountList<T> {
    if (!list.unsorted) return list;
    const { compare } = this.source;
    list.entries.sort((a, b) => compare(a.row, b.row));
    list.rows = list.entries.map((e) => e.row);
    list.position = new Map(list.entries.map((e, i) => [e.id, i]));
    list.unsorted = false;
    return list;
  }
}
