/**
 * Once per e2e run: builds the renderer when its sources changed since the last build (support/renderer.ts),
 * and seeds the reference service's demo portfolio once into a database file of the run's own that every
 * test file copies (seeding 90 days of history takes seconds; doing it per file would dominate the run).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openServiceDb } from '../../../service/db/openServiceDb.ts';
import { seedDemoData } from '../../../service/seed/demo.ts';
import { E2E_DIR } from './paths.ts';
import { buildRenderer } from './renderer.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The demo portfolio's service database, seeded at the start of this run. */
    demoSeedDb: string;
    /** The built renderer this run serves. */
    rendererDir: string;
  }
}

/** Seeds the demo into a database file of this run's own (removed when the run ends). */
async function seedDemo(file: string): Promise<void> {
  const started = Date.now();
  const db = openServiceDb(file);
  await seedDemoData(db, { now: new Date() });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  process.stderr.write(`e2e: demo portfolio seeded in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

export default async function setup(project: TestProject): Promise<() => void> {
  mkdirSync(E2E_DIR, { recursive: true });
  project.provide(
    'rendererDir',
    buildRenderer((line) => process.stderr.write(`e2e: ${line}\n`)),
  );
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-e2e-seed-'));
  const seed = join(dir, 'demo-seed.sqlite');
  await seedDemo(seed);
  project.provide('demoSeedDb', seed);
  return () => rmSync(dir, { recursive: true, force: true });
}
