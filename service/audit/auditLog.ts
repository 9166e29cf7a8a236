/**
 * Which calls the audit log records, and the writing of an entry.
 *
 * Recorded: every mutating call (POST, PUT, PATCH, DELETE) and the sensitive reads of SENSITIVE_READS,
 * whatever their outcome, once a valid token identified the caller (a call refused with 401 has no owner
 * to record it for). The entry's request_id is the one the response carried.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import type { AuthContext } from '../http/operation.ts';

/** Reads that are recorded as well: token lists, the audit log itself, MFA status, VMC analysis. */
export const SENSITIVE_READS: ReadonlySet<string> = new Set([
  'listTokens',
  'listAuditLogs',
  'getAuditLog',
  'getMySecurity',
  'getBimiVmc',
]);

/** True when a call of this operation is recorded. */
export function isAudited(op: { operationId: string; method: string }): boolean {
  return op.method !== 'GET' || SENSITIVE_READS.has(op.operationId);
}

/** One entry to record. */
export interface AuditEntry {
  requestId: string;
  action: string;
  method: string;
  path: string;
  statusCode: number;
  ip: string;
  auth: AuthContext;
  at: Date;
}

/** Writes one audit entry. */
export function recordAudit(db: ServiceDb, e: AuditEntry): void {
  db.prepare(
    `INSERT INTO audit_logs
       (request_id, action, method, path, status_code, ip_address, token_id, token_name, user_id, team_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    e.requestId,
    e.action,
    e.method,
    e.path,
    e.statusCode,
    e.ip,
    e.auth.tokenId,
    e.auth.tokenName,
    e.auth.userId,
    e.auth.teamId,
    e.at.toISOString(),
  );
}
