/**
 * The registries that are a folder — signals (signals/defs), live checks (livechecks/defs), alert rules
 * (alerts/rules) — load it the same way, here: writing a file registers it, there is no list to forget.
 * Each registry module (signals/signalFiles.ts, livechecks/checkFiles.ts, alerts/ruleFiles.ts) is one call of
 * loadDefinitionFolder; the app's bundles have no folder to list, so scripts/build-main.ts replaces those
 * modules in them with static imports of the same files (`folderRegistryPlugin`).
 */
import { readdirSync } from 'node:fs';

/** One definition file and its module's exports. */
export interface DefinitionFile {
  file: string;
  exports: Readonly<Record<string, unknown>>;
}

/** Every TypeScript file of a folder (a `file:` URL ending in '/'), imported, by file name (sorted). */
export async function loadDefinitionFolder(folder: URL): Promise<readonly DefinitionFile[]> {
  return Promise.all(
    readdirSync(folder)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
      .sort()
      .map(async (file) => ({
        file,
        exports: (await import(new URL(file, folder).href)) as Record<string, unknown>,
      })),
  );
}

/** A declared definition's file name: its name in camelCase (`mta_sts` → mtaSts.ts, `mta_sts_live` → mtaStsLive.ts). */
export function definitionFileName(name: string): string {
  return `${name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())}.ts`;
}
