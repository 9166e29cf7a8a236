/**
 * Every file of ./defs, loaded: the live check registry (./registry.ts) is this folder, so writing a check's
 * file registers it (as signals/signalFiles.ts does for signals). The app's bundles have no folder to list:
 * scripts/build-main.ts replaces this module in them with static imports of the same files.
 */
import { readdirSync } from 'node:fs';

/** One check file and its module's exports. */
export interface LiveCheckFile {
  file: string;
  exports: Readonly<Record<string, unknown>>;
}

const DEFS_DIR = new URL('./defs/', import.meta.url);

/** The check files, by file name (sorted). */
export const LIVE_CHECK_FILES: readonly LiveCheckFile[] = await Promise.all(
  readdirSync(DEFS_DIR)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .sort()
    .map(async (file) => ({
      file,
      exports: (await import(new URL(file, DEFS_DIR).href)) as Record<string, unknown>,
    })),
);
