/**
 * Every file of ./rules, loaded: the rule registry (./ruleSet.ts) is this folder, so writing a rule's file
 * registers it — there is no list to forget.
 *
 * Why a folder listing and not a hand-kept list or generated code: a list kept by hand is the line people
 * forget (a rule that silently never runs), and a generated one is still a third file in every rule's change.
 * The app's bundles have no folder to list: scripts/build-main.ts replaces this module in them with static
 * imports of the same files (`folderRegistryPlugin`), so the bundle holds exactly what the folder holds.
 */
import { readdirSync } from 'node:fs';

/** One rule file and its module's exports. */
export interface RuleFile {
  file: string;
  exports: Readonly<Record<string, unknown>>;
}

const RULES_DIR = new URL('./rules/', import.meta.url);

/** The rule files, by file name (sorted). */
export const RULE_FILES: readonly RuleFile[] = await Promise.all(
  readdirSync(RULES_DIR)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .sort()
    .map(async (file) => ({
      file,
      exports: (await import(new URL(file, RULES_DIR).href)) as Record<string, unknown>,
    })),
);
