/**
 * The sandbox's extra VMC trust roots (table vmc_trust_roots): read by every VMC check (inspection, analysis,
 * readiness, the configuration's vmc_status) as `extraRoots`, written only through the sandbox control
 * (service/sandbox/vmcRoots.ts). Empty unless a sandbox added a root, so production trusts the BIMI roots only.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';

/** One stored root. */
export interface VmcTrustRoot {
  fingerprint_sha256: string;
  subject: string;
  pem: string;
}

/** The PEMs of the extra roots, oldest first. */
export function loadVmcTrustRoots(db: ServiceDb): string[] {
  return db
    .prepare<[], { pem: string }>('SELECT pem FROM vmc_trust_roots ORDER BY id')
    .all()
    .map((r) => r.pem);
}

// Cached analyses were judged against the old trust list: drop them so the next read re-analyses.
function forgetCachedAnalyses(db: ServiceDb): void {
  db.prepare('UPDATE bimi_configs SET vmc_analysis = NULL, vmc_analyzed_at = NULL').run();
}

/** Adds `root` unless a root with its fingerprint is stored; returns whether it was added. */
export function addVmcTrustRoot(db: ServiceDb, root: VmcTrustRoot, now: Date): boolean {
  return db.transaction(() => {
    const added =
      db
        .prepare(
          `INSERT INTO vmc_trust_roots (fingerprint_sha256, subject, pem, created_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (fingerprint_sha256) DO NOTHING`,
        )
        .run(root.fingerprint_sha256, root.subject, root.pem, now.toISOString()).changes === 1;
    if (added) forgetCachedAnalyses(db);
    return added;
  })();
}

/** Removes every extra root; returns how many there were. */
export function clearVmcTrustRoots(db: ServiceDb): number {
  return db.transaction(() => {
    const removed = db.prepare('DELETE FROM vmc_trust_roots').run().changes;
    if (removed > 0) forgetCachedAnalyses(db);
    return removed;
  })();
}
