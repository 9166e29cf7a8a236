/**
 * Every file of ./rules, loaded: the rule registry (./ruleSet.ts) is this folder, so writing a rule's file
 * registers it — there is no list to forget (signals/definitionFolder.ts, as for signals and live checks).
 *
 * Why a folder listing and not a hand-kept list or generated code: a list kept by hand is the line people
 * forget (a rule that silently never runs), and a generated one is still a third file in every rule's change.
 * The app's bundles have no folder to list: scripts/build-main.ts replaces this module in them with static
 * imports of the same files (`folderRegistryPlugin`), so the bundle holds exactly what the folder holds.
 */
import { loadDefinitionFolder, type DefinitionFile } from '../signals/definitionFolder.ts';

/** The rule files, by file name (sorted). */
export const RULE_FILES: readonly DefinitionFile[] = await loadDefinitionFolder(
  new URL('./rules/', import.meta.url),
);
