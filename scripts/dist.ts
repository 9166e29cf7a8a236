/**
 * `npm run dist`: installers for this platform. Builds out/ (npm run build), rebuilds the native modules
 * (better-sqlite3, keytar) for Electron's ABI, runs electron-builder (electron-builder.yml), and finally
 * rebuilds them for Node again so the CLI and the tests keep working from this checkout. Needs the internet:
 * Electron, its headers and the packaging tools download. Never run by the tests.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NATIVE = ['better-sqlite3', 'keytar'];

function run(command: string, args: string[]): void {
  process.stderr.write(`dist: ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
}

try {
  run('npm', ['run', 'build']);
  // electron-builder packs out/main too; build it if `npm run build` did not.
  if (!existsSync(join(ROOT, 'out', 'main', 'main.js'))) run('npm', ['run', 'build:main']);
  run('npx', ['electron-rebuild', '--force', '--only', NATIVE.join(',')]);
  run('npx', ['electron-builder', '--publish', 'never', ...process.argv.slice(2)]);
} finally {
  // node_modules is shared with the Node side: give it back its Node-ABI binaries (keytar may be absent).
  spawnSync('npm', ['rebuild', ...NATIVE], {
    cwd: ROOT,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
}
