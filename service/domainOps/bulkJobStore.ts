/**
 * Bulk-add jobs (012_bulk_jobs.sql): creation with one pending item per submitted name, reads scoped to the
 * team, and the document's `BulkJob` shape. Item results: created, exists (already in the team or earlier
 * in the same list), invalid (not a domain name; `error` says why) or failed (unexpected error).
 */
import { randomUUID } from 'node:crypto';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { notFound } from '../http/serviceError.ts';

export type BulkJobStatus = 'queued' | 'running' | 'completed' | 'failed';
export type BulkItemStatus = 'pending' | 'created' | 'exists' | 'invalid' | 'failed';

/** A row of bulk_jobs. */
export interface BulkJobRow {
  id: string;
  team_id: number;
  user_id: number | null;
  status: BulkJobStatus;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

/** A row of bulk_job_items. */
export interface BulkItemRow {
  job_id: string;
  position: number;
  fqdn: string;
  status: BulkItemStatus;
  domain_id: number | null;
  error: string | null;
}

/** Stores a queued job for `names` (in the order given); returns its id. */
export function createBulkJob(
  db: ServiceDb,
  job: { teamId: number; userId: number; names: readonly string[]; now: Date },
): string {
  const id = randomUUID();
  db.transaction(() => {
    db.prepare(
      `INSERT INTO bulk_jobs (id, team_id, user_id, status, created_at) VALUES (?, ?, ?, 'queued', ?)`,
    ).run(id, job.teamId, job.userId, job.now.toISOString());
    const insert = db.prepare(
      `INSERT INTO bulk_job_items (job_id, position, fqdn, status) VALUES (?, ?, ?, 'pending')`,
    );
    job.names.forEach((name, i) => insert.run(id, i, name));
  })();
  return id;
}

/** The job `id` of team `teamId`, or 404 not_found (other teams' jobs look missing). */
export function requireBulkJob(db: ServiceDb, teamId: number, id: string): BulkJobRow {
  const row = db
    .prepare<[string, number], BulkJobRow>('SELECT * FROM bulk_jobs WHERE id = ? AND team_id = ?')
    .get(id, teamId);
  if (!row) throw notFound('Bulk job');
  return row;
}

/** The items of a job in submission order. */
export function bulkJobItems(db: ServiceDb, jobId: string): BulkItemRow[] {
  return db
    .prepare<[string], BulkItemRow>('SELECT * FROM bulk_job_items WHERE job_id = ? ORDER BY position')
    .all(jobId);
}

/**
 * Job → the document's `BulkJob`. processed counts items with a result; succeeded the created ones;
 * failed every other processed item (exists, invalid, failed), so succeeded + failed = processed.
 */
export function presentBulkJob(job: BulkJobRow, items: BulkItemRow[]): Record<string, unknown> {
  const done = items.filter((i) => i.status !== 'pending');
  const succeeded = done.filter((i) => i.status === 'created').length;
  return {
    job_id: job.id,
    status: job.status,
    total: items.length,
    processed: done.length,
    succeeded,
    failed: done.length - succeeded,
    results: done.map((i) => ({
      fqdn: i.fqdn,
      status: i.status,
      domain_id: i.domain_id,
      error: i.error,
    })),
    created_at: job.created_at,
    completed_at: job.completed_at,
  };
}
