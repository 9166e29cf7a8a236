import type { Database } from 'better-sqlite3';
import type { DomainsPayload } from '../signals/domains.ts';
import { MirrorError } from './mirrorError.ts';
import type { MirrorDomain, RowChanges, RowCursor } from './types.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';
import { AccountRowCache } from './rowCache.ts';

/** A domain row with its local key (pk) — the key every per-domain table uses. */
export interface DomainRecord extends MirrorDomain {
  pk: number;
}

interface DomainRow {
  id: number;
  account_id: number;
  remote_id: number;
  fqdn: string;
  first_seen_at: string;
  last_seen_at: string;
  removed_at: string | null;
}

function toRecord(row: DomainRow): DomainRecord {
  return {
    pk: row.id,
    accountId: row.account_id,
    domainId: row.remote_id,
    fqdn: row.fqdn,
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
    removedAt: row.removed_at,
  };
}

/** Strip the local key for callers outside the mirror. */
export function publicDomain({ pk: _pk, ...domain }: DomainRecord): MirrorDomain {
  return domain;
}

/** Domain rows, addressed by (account, remote id). */
export class DomainsStore {
  /** Every domain of the account, removed ones included (the engine lists them each tick). */
  private readonly cache: AccountRowCache<DomainRecord>;

  constructor(private readonly db: Database) {
    const entry = (row: DomainRow) => ({ id: row.id, accountId: row.account_id, row: toRecord(row) });
    this.cache = new AccountRowCache(db, {
      loadAll: (accountId) =>
        (
          prepared(this.db, 'SELECT * FROM domains WHERE account_id = ? ORDER BY fqdn, id').all(
            accountId,
          ) as DomainRow[]
        ).map(entry),
      loadOne: (id) => {
        const row = prepared(this.db, 'SELECT * FROM domains WHERE id = ?').get(id) as DomainRow | undefined;
        return row && entry(row);
      },
      compare: (a, b) => (a.fqdn < b.fqdn ? -1 : a.fqdn > b.fqdn ? 1 : a.pk - b.pk),
    });
  }

  /** The account's domains written since `cursor`, or all of them (rowCache.ts, changesSince). */
  changesSince(accountId: number, cursor: RowCursor | null): RowChanges<DomainRecord> {
    return this.cache.changesSince(accountId, cursor);
  }

  /** Forget the kept list of an account (it was removed). */
  invalidate(accountId: number): void {
    this.cache.invalidate(accountId);
  }

  /** The domain, or undefined. */
  find(accountId: number, remoteId: number): DomainRecord | undefined {
    const row = prepared(this.db, 'SELECT * FROM domains WHERE account_id = ? AND remote_id = ?').get(
      accountId,
      remoteId,
    ) as DomainRow | undefined;
    return row && toRecord(row);
  }

  /** The domain, or a MirrorError. */
  require(accountId: number, remoteId: number): DomainRecord {
    const found = this.find(accountId, remoteId);
    if (!found)
      throw new MirrorError('unknown_domain', `account ${accountId} has no domain ${remoteId} in the mirror`);
    return found;
  }

  /**
   * The domain a per-domain payload is about: known already, or learnt from the payload's fqdn (a poller may
   * fetch a domain before the domain list is stored).
   */
  resolve(accountId: number, remoteId: number, fqdn: string | undefined, now: string): DomainRecord {
    const found = this.find(accountId, remoteId);
    if (found) return found;
    if (!fqdn) {
      throw new MirrorError(
        'unknown_domain',
        `account ${accountId} has no domain ${remoteId} in the mirror and the payload does not name it`,
      );
    }
    const pk = prepared(
      this.db,
      'INSERT INTO domains (account_id, remote_id, fqdn, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)',
    ).run(accountId, remoteId, fqdn, now, now).lastInsertRowid;
    this.cache.touch(accountId, Number(pk));
    return this.require(accountId, remoteId);
  }

  /**
   * Store the complete domain list: new domains are added, known ones refreshed (and revived if they had
   * vanished), and domains missing from the list are marked removed — their history stays. Returns the
   * local keys of the domains this call removed and of the removed ones it revived. Domains whose ids are in
   * `unread` (entries of the answer that could not be read) stay as they were.
   */
  replaceList(
    accountId: number,
    list: DomainsPayload,
    now: string,
    unread: readonly number[] = [],
  ): { removed: number[]; returned: number[] } {
    const wereRemoved = new Map(
      this.list(accountId, true)
        .filter((d) => d.removedAt !== null)
        .map((d) => [d.domainId, d.pk]),
    );
    const returned: number[] = [];
    const upsert = prepared(
      this.db,
      `INSERT INTO domains (account_id, remote_id, fqdn, raw_json, first_seen_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, remote_id) DO UPDATE SET
         fqdn = excluded.fqdn, raw_json = excluded.raw_json, last_seen_at = excluded.last_seen_at, removed_at = NULL`,
    );
    const seen = new Set<number>(unread);
    for (const item of list) {
      seen.add(item.id);
      upsert.run(accountId, item.id, item.fqdn, JSON.stringify(item), now, now);
      const pk = wereRemoved.get(item.id);
      if (pk !== undefined) returned.push(pk);
    }
    this.cache.invalidate(accountId);
    const markRemoved = prepared(this.db, 'UPDATE domains SET removed_at = ? WHERE id = ?');
    const removed: number[] = [];
    for (const domain of this.list(accountId, false)) {
      if (seen.has(domain.domainId)) continue;
      markRemoved.run(now, domain.pk);
      removed.push(domain.pk);
    }
    this.cache.invalidate(accountId);
    return { removed, returned };
  }

  /** The account's domains by name (frozen: they are shared). */
  list(accountId: number, includeRemoved: boolean): DomainRecord[] {
    const all = this.cache.get(accountId);
    return includeRemoved ? all : all.filter((d) => d.removedAt === null);
  }

  /** The domain with this local key. */
  byPk(pk: number): DomainRecord {
    return toRecord(prepared(this.db, 'SELECT * FROM domains WHERE id = ?').get(pk) as DomainRow);
  }
}
