import type { Database } from 'better-sqlite3';

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
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version !== this.dataVersion) {
      this.lists.clear();
      this.dataVersion = version;
    }
    let list = this.lists.get(accountId);
    if (list && list.dirty.size > 0 && !this.refresh(accountId, list)) list = undefined;
    if (!list) {
      list = this.build(this.source.loadAll(accountId));
      this.lists.set(accountId, list);
    }
    return list.rows.slice();
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
    };
  }

  /** Re-reads the touched rows into the copy; false when one vanished or moved account (reload instead). */
  private refresh(accountId: number, list: AccountList<T>): boolean {
    let appeared = false;
    for (const id of list.dirty) {
      const entry = this.source.loadOne(id);
      const at = list.position.get(id);
      if (!entry || entry.accountId !== accountId) {
        if (at !== undefined) return false;
        continue;
      }
      Object.freeze(entry.row);
      if (at === undefined) {
        list.entries.push(entry);
        appeared = true;
      } else {
        list.entries[at] = entry;
        list.rows[at] = entry.row;
      }
    }
    list.dirty.clear();
    if (appeared) {
      const { compare } = this.source;
      Object.assign(list, this.build(list.entries.sort((a, b) => compare(a.row, b.row))));
    }
    return true;
  }
}
