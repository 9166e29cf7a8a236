/** The renderer as the e2e suite and the UI benchmark use it: built once, again only when its sources change. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { E2E_DIR, RENDERER_DIR, ROOT } from './paths.ts';

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

/**
 * Builds the renderer unless a build newer than every source exists, and returns its folder. Builds are
 * kept by the time of their newest source (test-results/e2e/renderer-<ms>), made in a temporary folder and
 * renamed into place: two runs at once (several people share a machine) never swap files under each
 * other's pages. AUTHWATCH_E2E_BUILD=1 forces a build.
 */
export function buildRenderer(say: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): string {
  const sources = newest(
    ['renderer', 'shared', 'vite.config.ts', 'package-lock.json'].map((p) => join(ROOT, p)),
  );
  const dir = `${RENDERER_DIR}-${Math.floor(sources)}`;
  if (existsSync(join(dir, 'index.html')) && process.env.AUTHWATCH_E2E_BUILD !== '1') return dir;
  const started = Date.now();
  const temp = `${dir}.tmp-${process.pid}`;
  const built = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn', '--outDir', temp],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (built.status !== 0) throw new Error('the renderer build failed');
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(temp, dir);
  } catch {
    rmSync(temp, { recursive: true, force: true }); // another run put the same build in place first
  }
  // Older builds are of no use once a newer one exists.
  for (const entry of readdirSync(E2E_DIR)) {
    const old = join(E2E_DIR, entry);
    if (/^renderer-\d+$/.test(entry) && old !== dir && Date.now() - statSync(old).mtimeMs > 3_600_000)
      rmSync(old, { recursive: true, force: true });
  }
  say(`renderer built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return dir;
}
