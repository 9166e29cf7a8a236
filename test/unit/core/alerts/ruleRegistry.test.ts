import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_RULES, DEFAULT_RULES } from '../../../../main/core/alerts/ruleSet.ts';
import { SIGNAL_NAMES } from '../../../../main/core/signals/catalog.ts';
import { SIGNAL_DEFINITIONS } from '../../../../main/core/signals/registry.ts';

const RULES_DIR = join(import.meta.dirname, '../../../../main/core/alerts/rules');
const ruleFiles = readdirSync(RULES_DIR).filter((f) => f.endsWith('.ts'));
const registered: ReadonlySet<unknown> = new Set(Object.values(DEFAULT_RULES));

// A rule that is written but not registered never runs, and nothing else would notice: this keeps the rule
// files and the registry (main/core/alerts/ruleSet.ts) one list.
describe('the rule registry', () => {
  it.each(ruleFiles)('%s exports its rule under its file name, and the registry holds it', async (file) => {
    const name = basename(file, '.ts');
    const mod = (await import(join(RULES_DIR, file))) as Record<string, unknown>;
    expect(typeof mod[name], `${file} must export its rule as \`${name}\``).toBe('function');
    expect(
      registered.has(mod[name]),
      `rule ${name} (main/core/alerts/rules/${file}) is not registered in main/core/alerts/ruleSet.ts DEFAULT_RULES: it would never run`,
    ).toBe(true);
  });

  it('holds nothing but the rule files, and every rule it holds is run by a signal or by every account write', () => {
    expect(Object.keys(DEFAULT_RULES).sort()).toEqual(ruleFiles.map((f) => basename(f, '.ts')).sort());
    const read = new Set<string>(ACCOUNT_RULES);
    for (const name of SIGNAL_NAMES) {
      const d = SIGNAL_DEFINITIONS[name];
      if (d.per === 'domain') for (const rule of d.rules?.reads ?? []) read.add(rule);
    }
    for (const rule of Object.keys(DEFAULT_RULES)) {
      expect(read.has(rule), `rule ${rule} is registered but no signal's definition reads it`).toBe(true);
    }
  });
});
