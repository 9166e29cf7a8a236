/** Where the e2e suite keeps its build and seed, and puts what it leaves for people to look at. */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
/** The suite's working folder (ignored by git). */
export const E2E_DIR = join(ROOT, 'test-results', 'e2e');
/** Prefix of the renderer builds (vite build --outDir), one per state of the sources. */
export const RENDERER_DIR = join(E2E_DIR, 'renderer');
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');
