// Which code the `authwatch` command runs (plain JS: it decides before any TypeScript can load).
//
// The bundle `npm run build:main` writes (out/main/cli.js) when it is at least as new as everything it is
// built from, else the TypeScript sources through tsx's loader (an install still needs no build step).
// Why prefer the bundle: the loader's compiler and source maps stay in the process for as long as it runs —
// at 1,000 domains 25–45 MiB more RSS than the same engine bundled (the simulated week's engine 122 → 78 MiB
// at its start, 189 → 163 after 6 simulated hours; the real `sync --watch` ~133 → ~108 MiB in its first
// minutes), for a `sync --watch` that runs for months. A stale bundle is never run: a source, a
// folder (a file added or removed) or the package manifests newer than it send the command to the sources.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the bundle is built from: the sources it imports and the dependencies' manifests. */
const SOURCE_DIRS = ['main', 'shared'];
const MANIFESTS = ['package.json', 'package-lock.json'];

/** @param {string} path */
const mtimeOf = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
};

/**
 * The newest modification time under `dir` (its own, its folders' and its files').
 * @param {string} dir
 * @returns {number}
 */
function newestUnder(dir) {
  let newest = mtimeOf(dir);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return newest;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : mtimeOf(path));
  }
  return newest;
}

/**
 * @param {string} root the installation (the repository's root)
 * @returns {{ kind: 'bundle', path: string } | { kind: 'sources', path: string, why: string }}
 */
export function cliEntry(root) {
  const bundle = join(root, 'out', 'main', 'cli.js');
  const sources = { kind: /** @type {const} */ ('sources'), path: join(root, 'main', 'cli', 'index.ts') };
  const built = mtimeOf(bundle);
  if (!built) return { ...sources, why: 'no bundle (npm run build:main makes one)' };
  const newest = Math.max(
    ...SOURCE_DIRS.map((d) => newestUnder(join(root, d))),
    ...MANIFESTS.map((m) => mtimeOf(join(root, m))),
  );
  if (newest > built) return { ...sources, why: 'the bundle is older than the sources' };
  return { kind: 'bundle', path: bundle };
}
