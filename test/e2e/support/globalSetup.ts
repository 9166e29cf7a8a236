/**
 * Once per e2e run: builds the renderer when its sources changed since the last build (into the suite's
 * own folder, so a build elsewhere in the tree cannot swap files under a running test), and seeds the
 * reference service's demo portfolio once into a database file every test file copies (seeding 90 days
 * of history takes seconds; doing it per file would dominate the run).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openServiceDb } from '../../../service/db/openServiceDb.ts';
import { seedDemoData } from '../../../service/seed/demo.ts';
import { E2E_DIR, RENDERER_DIR, ROOT, SEED_DB } from './paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The demo portfolio's service database, seeded at the start of this run. */
    demoSeedDb: string;
  }
}

/** Newest modification time under the given files and folders. */
function newest(paths: string[]): number {
  let max = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else max = Math.max(max, stat.mtimeMs);
  };
  paths.forEach(visit);
  return max;
}

function buildRenderer(): void {
  const stamp = join(RENDERER_DIR, '.built');
  const sources = newest(
    ['renderer', 'shared', 'vite.config.ts', 'package-lock.json'].map((p) => join(ROOT, p)),
  );
  if (existsSync(stamp) && statSync(stamp).mtimeMs > sources && process.env.AUTHWATCH_E2E_BUILD !== '1')
    return;
  const started = Date.now();
  const built = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--logLevel',
      'warn',
      '--outDir',
      RENDERER_DIR,
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (built.status !== 0) throw new Error('the renderer build failed');
  writeFileSync(stamp, new Date().toISOString());
  process.stderr.write(`e2e: renderer built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

async function seedDemo(): Promise<void> {
  const started = Date.now();
  rmSync(SEED_DB, { force: true });
  rmSync(`${SEED_DB}-wal`, { force: true });
  rmSync(`${SEED_DB}-shm`, { force: true });
  const db = openServiceDb(SEED_DB);
  await seedDemoData(db, { now: new Date() });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  process.stderr.write(`e2e: demo portfolio seeded in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

export default async function setup(project: TestProject): Promise<void> {
  mkdirSync(E2E_DIR, { recursive: true });
  buildRenderer();
  await seedDemo();
  project.provide('demoSeedDb', SEED_DB);
}
