/**
 * Every file of ./defs, loaded: the live check registry (./registry.ts) is this folder, so writing a check's
 * file registers it (signals/definitionFolder.ts, as for signals and rules). The app's bundles replace this
 * module with static imports of the same files.
 */
import { loadDefinitionFolder, type DefinitionFile } from '../signals/definitionFolder.ts';

/** The check files, by file name (sorted). */
export const LIVE_CHECK_FILES: readonly DefinitionFile[] = await loadDefinitionFolder(
  new URL('./defs/', import.meta.url),
);
