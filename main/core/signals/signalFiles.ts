/**
 * Every file of ./defs, loaded: the signal registry (./registry.ts) is this folder, so writing a signal's
 * file registers it — there is no list to forget (./definitionFolder.ts; the same way as the alert rules and
 * the live checks). The app's bundles replace this module with static imports of the same files.
 */
import { loadDefinitionFolder, type DefinitionFile } from './definitionFolder.ts';

/** The signal files, by file name (sorted). */
export const SIGNAL_FILES: readonly DefinitionFile[] = await loadDefinitionFolder(
  new URL('./defs/', import.meta.url),
);
