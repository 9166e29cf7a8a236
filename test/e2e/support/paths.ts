/** Where the e2e suite keeps its build and seed, and puts what it leaves for people to look at. */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
/** The suite's working folder (ignored by git). */
export const E2E_DIR = join(ROOT, 'test-results', 'e2e');
/** The renderer as the suite built it (vite build --outDir). */
export const RENDERER_DIR = join(E2E_DIR, 'renderer');
/** The reference service's database with the demo portfolio, seeded once per run. */
export const SEED_DB = join(E2E_DIR, 'demo-seed.sqlite');
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');
