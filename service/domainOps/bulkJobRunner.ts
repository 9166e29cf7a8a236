/**
 * Runs bulk-add jobs inside the service process, after the 202 has been sent: a small queue driven by
 * setImmediate that handles a slice of names per turn of the event loop, so requests keep being served and
 * GET /domains/bulk/{job_id} can see the job queued, running, then completed.
 *
 * Jobs are persisted (bulkJobStore.ts); a job found queued or running with no runner in this process
 * (e.g. after a restart) is picked up again by `ensureBulkJobRunning`.
 */
import type { ServiceContext } from '../http/operation.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { checkFqdn } from './fqdn.ts';
import { findDomainByFqdn, insertDomain } from './domainStore.ts';
import type { BulkItemRow, BulkJobRow } from './bulkJobStore.ts';

/** Names handled per turn of the event loop. */
export const BULK_SLICE = 20;

// Jobs with a runner scheduled in this process, per database (a test may run several services at once).
const running = new WeakMap<ServiceDb, Set<string>>();

function activeJobs(db: ServiceDb): Set<string> {
  let set = running.get(db);
  if (!set) running.set(db, (set = new Set()));
  return set;
}

/** Schedules the job unless it is finished or already running here. */
export function ensureBulkJobRunning(ctx: Pick<ServiceContext, 'db' | 'clock'>, job: BulkJobRow): void {
  if (job.status === 'completed' || job.status === 'failed') return;
  const active = activeJobs(ctx.db);
  if (active.has(job.id)) return;
  active.add(job.id);
  setImmediate(() => step(ctx, job.id, job.team_id));
}

function step(ctx: Pick<ServiceContext, 'db' | 'clock'>, jobId: string, teamId: number): void {
  const { db } = ctx;
  // The service may have been closed between two turns: leave the job for the next start.
  if (!db.open) return;
  try {
    const more = db.transaction(() => {
      const now = ctx.clock().toISOString();
      db.prepare(
        `UPDATE bulk_jobs SET status = 'running', started_at = COALESCE(started_at, ?) WHERE id = ?`,
      ).run(now, jobId);
      const slice = db
        .prepare<[string, number], BulkItemRow>(
          `SELECT * FROM bulk_job_items WHERE job_id = ? AND status = 'pending' ORDER BY position LIMIT ?`,
        )
        .all(jobId, BULK_SLICE);
      for (const item of slice) processItem(ctx, teamId, item);
      if (slice.length < BULK_SLICE) {
        db.prepare(`UPDATE bulk_jobs SET status = 'completed', completed_at = ? WHERE id = ?`).run(
          now,
          jobId,
        );
        return false;
      }
      return true;
    })();
    if (more) {
      setImmediate(() => step(ctx, jobId, teamId));
      return;
    }
  } catch {
    failJob(ctx, jobId);
  }
  activeJobs(db).delete(jobId);
}

function processItem(ctx: Pick<ServiceContext, 'db' | 'clock'>, teamId: number, item: BulkItemRow): void {
  const { db } = ctx;
  const setResult = db.prepare(
    'UPDATE bulk_job_items SET status = ?, domain_id = ?, error = ? WHERE job_id = ? AND position = ?',
  );
  const checked = checkFqdn(item.fqdn);
  if ('error' in checked) {
    setResult.run('invalid', null, checked.error, item.job_id, item.position);
    return;
  }
  const existing = findDomainByFqdn(db, teamId, checked.fqdn);
  if (existing) {
    setResult.run(
      'exists',
      existing.id,
      `${checked.fqdn} is already a domain of this team`,
      item.job_id,
      item.position,
    );
    return;
  }
  const id = insertDomain(db, { teamId, fqdn: checked.fqdn, parentDomainId: null, now: ctx.clock() });
  setResult.run('created', id, null, item.job_id, item.position);
}

function failJob(ctx: Pick<ServiceContext, 'db' | 'clock'>, jobId: string): void {
  const { db } = ctx;
  if (!db.open) return;
  try {
    db.transaction(() => {
      db.prepare(
        `UPDATE bulk_job_items SET status = 'failed', error = 'the job stopped on an unexpected error'
         WHERE job_id = ? AND status = 'pending'`,
      ).run(jobId);
      db.prepare(`UPDATE bulk_jobs SET status = 'failed', completed_at = ? WHERE id = ?`).run(
        ctx.clock().toISOString(),
        jobId,
      );
    })();
  } catch {
    // Nothing more can be recorded; the job stays running and is retried by ensureBulkJobRunning.
  }
}
