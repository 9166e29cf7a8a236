import type { Database } from 'better-sqlite3';
import { MirrorError } from './mirrorError.ts';
import type { Account } from './types.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

interface AccountRow {
  id: number;
  label: string;
  base_url: string;
  created_at: string;
  paused_reason: string | null;
}

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    label: row.label,
    baseUrl: row.base_url,
    createdAt: row.created_at,
    pausedReason: row.paused_reason,
  };
}

function requireText(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new MirrorError('invalid_input', `${what} must be a non-empty string`);
  }
  return value.trim();
}

/** Account rows. Only label and base URL are ever read from the input: nothing else can reach the table. */
export class AccountsStore {
  constructor(private readonly db: Database) {}

  /** See Mirror.upsertAccount. */
  upsert(input: { id?: number; label: string; baseUrl: string }, now: string): Account {
    const label = requireText(input.label, 'label');
    const baseUrl = requireText(input.baseUrl, 'baseUrl');
    try {
      if (input.id !== undefined) {
        const row = prepared(
          this.db,
          'UPDATE accounts SET label = ?, base_url = ? WHERE id = ? RETURNING *',
        ).get(label, baseUrl, input.id) as AccountRow | undefined;
        if (!row) throw new MirrorError('unknown_account', `no account ${input.id}`);
        return toAccount(row);
      }
      const row = prepared(
        this.db,
        `INSERT INTO accounts (label, base_url, created_at) VALUES (?, ?, ?)
           ON CONFLICT (label) DO UPDATE SET base_url = excluded.base_url RETURNING *`,
      ).get(label, baseUrl, now) as AccountRow;
      return toAccount(row);
    } catch (err) {
      if (err instanceof Error && 'code' in err && err.code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new MirrorError('label_taken', `another account is already labelled ${JSON.stringify(label)}`);
      }
      throw err;
    }
  }

  /** Every account, by label. */
  list(): Account[] {
    return (prepared(this.db, 'SELECT * FROM accounts ORDER BY label, id').all() as AccountRow[]).map(
      toAccount,
    );
  }

  /** One account, or a MirrorError. */
  require(id: number): Account {
    const row = prepared(this.db, 'SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
    if (!row) throw new MirrorError('unknown_account', `no account ${id}`);
    return toAccount(row);
  }

  /** Delete an account; foreign keys cascade to everything mirrored for it. */
  remove(id: number): boolean {
    return prepared(this.db, 'DELETE FROM accounts WHERE id = ?').run(id).changes > 0;
  }

  /** Set or clear the pause reason. */
  setPaused(id: number, reason: string | null): void {
    const changes = prepared(this.db, 'UPDATE accounts SET paused_reason = ? WHERE id = ?').run(
      reason,
      id,
    ).changes;
    if (changes === 0) throw new MirrorError('unknown_account', `no account ${id}`);
  }
}
