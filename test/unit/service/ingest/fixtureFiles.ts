import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');

/**
 * The team's read-only real-world fixtures: `shared/` sits beside the clone (locally and in CI);
 * AUTHWATCH_FIXTURES points elsewhere on machines that keep them apart.
 */
export const FIXTURES_DIR = process.env.AUTHWATCH_FIXTURES ?? resolve(repoRoot, '../shared/fixtures');

/** Every report file in one fixture folder (the README is documentation, not a report). */
export function listFixtures(folder: 'dmarc-aggregate' | 'tls-rpt'): string[] {
  const dir = join(FIXTURES_DIR, folder);
  if (!existsSync(dir)) throw new Error(`fixture folder ${dir} is missing; set AUTHWATCH_FIXTURES`);
  return readdirSync(dir)
    .filter((name) => name !== 'README.md')
    .sort();
}

/** The bytes of one fixture file, exactly as stored. */
export function readFixture(folder: 'dmarc-aggregate' | 'tls-rpt', name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES_DIR, folder, name)));
}
