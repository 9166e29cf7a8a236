/**
 * Every file of ./defs, loaded: the signal registry (./registry.ts) is this folder, so writing a signal's
 * file registers it — there is no list to forget (the same way as the alert rules: alerts/ruleFiles.ts).
 * The app's bundles have no folder to list: scripts/build-main.ts replaces this module in them with static
 * imports of the same files, so a bundle holds exactly what the folder held when it was built.
 */
import { readdirSync } from 'node:fs';

/** One signal file and its module's exports. */
export interface SignalFile {
  file: string;
  exports: Readonly<Record<string, unknown>>;
}

const DEFS_DIR = new URL('./defs/', import.meta.url);

/** The signal files, by file name (sorted). */
export const SIGNAL_FILES: readonly SignalFile[] = await Promise.all(
  readdirSync(DEFS_DIR)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .sort()
    .map(async (file) => ({
      file,
      exports: (await import(new URL(file, DEFS_DIR).href)) as Record<string, unknown>,
    })),
);
