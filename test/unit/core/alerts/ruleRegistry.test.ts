import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  polledRule,
  registeredRule,
  rulesReading,
  signalCarriedRules,
} from '../../../../main/core/alerts/ruleSet.ts';
import { SIGNAL_NAMES } from '../../../../main/core/signals/catalog.ts';
import type { RuleDefinition } from '../../../../main/core/alerts/ruleDefinition.ts';
import type { SignalDefinition } from '../../../../main/core/signals/definition.ts';
import { SIGNAL_DEFINITIONS } from '../../../../main/core/signals/registry.ts';
import { LIVE_CHECKS } from '../../../../main/core/livechecks/registry.ts';
import {
  ALERT_CATALOGUE,
  DEFAULT_RULES,
  RULE_DEFINITIONS,
} from '../../../../main/core/livechecks/ruleRegistry.ts';

const RULES_DIR = join(import.meta.dirname, '../../../../main/core/alerts/rules');
const ruleFiles = readdirSync(RULES_DIR).filter((f) => f.endsWith('.ts'));
const registered: ReadonlySet<unknown> = new Set(Object.values(DEFAULT_RULES));
/** The rules signals carry in their own files (main/core/signals/defs), by id. */
const carried = Object.entries(SIGNAL_DEFINITIONS as Record<string, SignalDefinition>).flatMap(([, d]) =>
  d.per === 'domain' ? Object.keys(d.rules ?? {}) : [],
);
/** The rules live checks carry in their own files (main/core/livechecks/defs), by id. */
const liveCarried = Object.values(LIVE_CHECKS).flatMap((c) => Object.keys(c.rules ?? {}));

// The registry is the folder (main/core/alerts/ruleFiles.ts): a rule file is registered by existing, and one
// that does not declare itself is refused with its file named — a rule never silently stays dead.
describe('the rule registry', () => {
  it.each(ruleFiles)('%s exports its rule under its file name, and the registry holds it', async (file) => {
    const name = basename(file, '.ts');
    const mod = (await import(join(RULES_DIR, file))) as Record<string, unknown>;
    expect(typeof mod[name], `${file} must export its rule as \`${name}\``).toBe('function');
    expect(
      registered.has(mod[name]),
      `rule ${name} (main/core/alerts/rules/${file}) is not registered: it would never run`,
    ).toBe(true);
  });

  it('holds nothing but the rule files and the rules signals and live checks carry, and every rule it holds is run by a signal, by every account write, by the DNS watch or by its live check', () => {
    expect(Object.keys(DEFAULT_RULES).sort()).toEqual(
      [...ruleFiles.map((f) => basename(f, '.ts')), ...carried, ...liveCarried].sort(),
    );
    const read = new Set<string>(
      Object.keys(RULE_DEFINITIONS).filter(
        (id) =>
          RULE_DEFINITIONS[id]!.account !== undefined ||
          RULE_DEFINITIONS[id]!.dnsWatch === true ||
          Object.hasOwn(LIVE_CHECKS, RULE_DEFINITIONS[id]!.liveCheck ?? ''),
      ),
    );
    for (const name of SIGNAL_NAMES) for (const rule of rulesReading(name, RULE_DEFINITIONS)) read.add(rule);
    for (const rule of Object.keys(DEFAULT_RULES)) {
      expect(read.has(rule), `rule ${rule} is registered but no signal's write runs it`).toBe(true);
    }
  });

  it('refuses a rule file that does not declare its rule, naming the file', () => {
    const decide = () => [];
    expect(() => registeredRule({ file: 'forgotten.ts', exports: { forgotten: decide } })).toThrow(
      'alert rule main/core/alerts/rules/forgotten.ts has no default export (`export default alertRule({...})`): it would never run',
    );
    expect(() =>
      registeredRule({ file: 'idle.ts', exports: { idle: decide, default: { alerts: {}, run: decide } } }),
    ).toThrow(
      'idle.ts is read by no signal (`on`), is no account rule (`account`) and no DNS watch rule (`dnsWatch`): it would never run',
    );
    expect(() =>
      registeredRule({
        file: 'renamed.ts',
        exports: { other: decide, default: { alerts: {}, run: decide } },
      }),
    ).toThrow('must export its decision function as `renamed`');
  });

  it('holds the rules a signal carries in its file, run by that signal’s writes; refuses an id a rule file has', () => {
    const decide = () => [];
    const on = () => [];
    const signal = {
      per: 'domain',
      rules: {
        logoLost: {
          alerts: { logo_lost: { label: 'Logo lost', description: 'Lost.', severity: 'info' } },
          run: decide,
          on,
        },
      },
    } as unknown as SignalDefinition;
    expect(signalCarriedRules({ logo: signal }, new Set())).toEqual([
      [
        'logoLost',
        {
          alerts: { logo_lost: expect.objectContaining({ label: 'Logo lost' }) },
          run: decide,
          on: { logo: on },
        },
      ],
    ]);
    expect(() => signalCarriedRules({ logo: signal }, new Set(['logoLost']))).toThrow(
      'alert rule logoLost of signal logo (main/core/signals/defs/) has the id of a rule file',
    );
    for (const id of carried) {
      expect(RULE_DEFINITIONS[id], `rule ${id} carried by a signal is not registered`).toBeDefined();
      expect(Object.keys(RULE_DEFINITIONS[id]!.on ?? {})).toHaveLength(1);
    }
  });

  it('refuses a rule that reads only signals read for opened domains, naming the rule and the signals', () => {
    const rule = (on: string[]) =>
      [
        'tlsRptFailing',
        { alerts: {}, run: () => [], on: Object.fromEntries(on.map((s) => [s, () => []])) },
      ] as [string, RuleDefinition];
    const signals = SIGNAL_DEFINITIONS as Record<string, SignalDefinition>;
    expect(() => polledRule(rule(['tls_rpt']), signals)).toThrow(
      "alert rule tlsRptFailing reads only tls_rpt, which is read only for domains someone opened (plan.role 'on_demand'): it would never run for the other domains — read a signal polled for every domain (role 'core' or 'history')",
    );
    expect(() => polledRule(rule(['dns_timeline', 'sending_services']), signals)).toThrow(
      'alert rule tlsRptFailing reads only dns_timeline, sending_services, which are read only for domains someone opened',
    );
    // One polled signal among them runs it for every domain (the protocol rules read dns_timeline and health).
    expect(polledRule(rule(['dns_timeline', 'health']), signals)[0]).toBe('tlsRptFailing');
  });

  it('words every alert a rule raises: a label, a sentence, a severity', () => {
    expect(ALERT_CATALOGUE.size).toBeGreaterThanOrEqual(10);
    for (const [name, kind] of ALERT_CATALOGUE) {
      expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(kind.label.length, name).toBeGreaterThan(3);
      expect(kind.label).not.toContain('_');
      expect(kind.description, name).toMatch(/\.$/);
      expect(['critical', 'warning', 'info']).toContain(kind.severity);
    }
  });
});
