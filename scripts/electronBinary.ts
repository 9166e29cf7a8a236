import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Electron's package downloads its binary on first use; where that cannot happen (no internet) asking the
// package would hang, so the binary is looked for on disk.
/** The installed Electron binary, or why there is none. */
export function electronBinary(root: string): { path: string } | { why: string } {
  const pkg = join(root, 'node_modules', 'electron');
  if (!existsSync(pkg)) return { why: 'the electron package is not installed' };
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const pathFile = join(pkg, 'path.txt');
  if (!override && !existsSync(pathFile))
    return { why: 'Electron’s binary has not been downloaded (it needs the internet on first run)' };
  const binary = override
    ? join(override, 'electron')
    : join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { path: binary } : { why: `Electron’s binary is missing (${binary})` };
}
