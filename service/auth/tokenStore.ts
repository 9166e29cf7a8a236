/** Rows of `api_tokens`: issue, look up by secret, list, revoke. The secret itself is never stored. */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { generateTokenSecret, hashTokenSecret, tokenDisplayPrefix, tokenLastFour } from './tokenSecret.ts';

/** A token row as stored (never holds the secret). */
export interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  prefix: string;
  last_four: string;
  scopes: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

/** What issuing a token needs. `secret` lets the CLI register a given value; otherwise one is generated. */
export interface IssueTokenInput {
  userId: number;
  name: string;
  scopes: readonly string[];
  expiresAt: Date;
  now: Date;
  secret?: string;
}

const DAY_MS = 86_400_000;

/** Expiry instant `days` after `now`. */
export function expiryAfterDays(now: Date, days: number): Date {
  return new Date(now.getTime() + days * DAY_MS);
}

/** Stores a new token; returns its id and the plain secret (the only time it exists outside the caller). */
export function issueToken(
  db: ServiceDb,
  input: IssueTokenInput,
): { id: number; plainText: string; row: TokenRow } {
  const secret = input.secret ?? generateTokenSecret();
  const result = db
    .prepare(
      `INSERT INTO api_tokens (user_id, name, prefix, last_four, token_hash, scopes, expires_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      input.userId,
      input.name,
      tokenDisplayPrefix(secret),
      tokenLastFour(secret),
      hashTokenSecret(secret),
      JSON.stringify([...new Set(input.scopes)]),
      input.expiresAt.toISOString(),
      input.now.toISOString(),
    );
  const id = Number(result.lastInsertRowid);
  return { id, plainText: secret, row: getToken(db, id)! };
}

/** One token row by id. */
export function getToken(db: ServiceDb, id: number): TokenRow | undefined {
  return db.prepare<[number], TokenRow>('SELECT * FROM api_tokens WHERE id = ?').get(id);
}

/** The token row a presented secret belongs to (whatever its state), or undefined. */
export function findTokenBySecret(db: ServiceDb, secret: string): TokenRow | undefined {
  return db
    .prepare<[string], TokenRow>('SELECT * FROM api_tokens WHERE token_hash = ?')
    .get(hashTokenSecret(secret));
}

/** True when the token can be used at `now`: not revoked, not expired. */
export function isTokenActive(row: TokenRow, now: Date): boolean {
  return row.revoked_at === null && Date.parse(row.expires_at) > now.getTime();
}

/** Scopes of a row. */
export function tokenScopes(row: TokenRow): string[] {
  return JSON.parse(row.scopes) as string[];
}

/** The public shape of a token (schema ApiToken): never the hash or the secret. */
export function presentToken(row: TokenRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    scopes: tokenScopes(row),
    last_four: row.last_four,
    last_used_at: row.last_used_at,
    expires_at: row.expires_at,
    created_at: row.created_at,
  };
}
