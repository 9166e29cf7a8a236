/**
 * `npm start`: the desktop app. Electron when its binary is installed (and the app is built), otherwise the
 * browser host — Chromium in app mode when installed, else the address to open — saying which and why.
 * Electron's package downloads its binary on first use; where that download cannot happen (no internet, as
 * on our build machines) asking for it would hang, so the binary is looked for on disk instead.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary } from './electronBinary.ts';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const say = (line: string) => process.stderr.write(`${line}\n`);

function build(what: string, command: string, args: string[]): void {
  say(`Building ${what}…`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) throw new Error(`building ${what} failed`);
}

const electron = electronBinary(root);
const electronMain = join(root, 'out', 'main', 'main.js');
if ('path' in electron) {
  if (!existsSync(electronMain) || !existsSync(join(root, 'out', 'renderer', 'index.html')))
    build('the app', 'npm', ['run', 'build']);
  say(`Starting the desktop app (Electron: ${electron.path}).`);
  const child = spawn(electron.path, [electronMain, ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
  });
  child.once('exit', (code) => process.exit(code ?? 0));
} else {
  say(`Starting the browser host: ${electron.why}.`);
  if (!existsSync(join(root, 'out', 'renderer', 'index.html')))
    build('the renderer', process.execPath, [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--logLevel',
      'warn',
    ]);
  await import('../main/host/index.ts');
}
