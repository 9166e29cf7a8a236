import type { AlertKind, AnyRuleFn, RuleDefinition } from './ruleDefinition.ts';
import { SIGNAL_DEFINITIONS } from '../signals/registry.ts';
import type { SignalDefinition } from '../signals/definition.ts';
import type { DefinitionFile } from '../signals/definitionFolder.ts';
import { RULE_FILES } from './ruleFiles.ts';
import type { Severity } from './types.ts';

/**
 * The rule registry: every file of ./rules is one rule, exporting its decision function under its file's name
 * and its definition (`export default alertRule({...})`) as the default. A file that does not (a rule written
 * but not declared) fails every start and every test that opens a mirror, with its file named: it would never
 * run. The rules' signals are checked by the types (ruleDefinition.ts), the rest derives from here. Rules a
 * signal carries in its own file (signalCarriedRules) join them.
 */
export function registeredRule({ file, exports }: DefinitionFile): [string, RuleDefinition] {
  const id = file.replace(/\.ts$/, '');
  const definition = exports.default as Partial<RuleDefinition> | undefined;
  const problem = !definition
    ? 'has no default export (`export default alertRule({...})`)'
    : typeof definition.run !== 'function' || definition.run !== exports[id]
      ? `must export its decision function as \`${id}\` and name it as its definition's \`run\``
      : !definition.alerts
        ? 'does not say which alerts it raises (`alerts`)'
        : !definition.account &&
            !definition.dnsWatch &&
            !definition.liveCheck &&
            Object.keys(definition.on ?? {}).length === 0
          ? 'is read by no signal (`on`), is no account rule (`account`) and no DNS watch rule (`dnsWatch`)'
          : null;
  if (problem) throw new Error(`alert rule main/core/alerts/rules/${file} ${problem}: it would never run`);
  return [id, definition as RuleDefinition];
}

/**
 * The rules the signals carry (a signal's `rules`, e.g. an extraSignal()'s: main/core/signals/defs/*), each
 * run by that signal's writes. An id a rule file already has is refused: two rules would answer to it.
 */
export function signalCarriedRules(
  signals: Readonly<Record<string, SignalDefinition>>,
  fileIds: ReadonlySet<string>,
): [string, RuleDefinition][] {
  return Object.entries(signals).flatMap(([signal, d]) =>
    Object.entries((d.per === 'domain' && d.rules) || {}).map(([id, rule]): [string, RuleDefinition] => {
      if (fileIds.has(id) || !/^[a-z][A-Za-z0-9]*$/.test(id)) {
        throw new Error(
          `alert rule ${id} of signal ${signal} (main/core/signals/defs/) ${fileIds.has(id) ? 'has the id of a rule file' : 'must be named in camelCase'}`,
        );
      }
      return [id, { alerts: rule.alerts, run: rule.run, on: { [signal]: rule.on } }];
    }),
  );
}

/**
 * Refuses a rule whose signals are all read only for domains someone opened (plan role `on_demand`, e.g.
 * `dns_current`'s panel): it would run for those few domains and stay silently dead for every other one.
 * Its file is named, as for a rule that never runs at all.
 */
export function polledRule(
  [id, definition]: [string, RuleDefinition],
  signals: Readonly<Record<string, SignalDefinition>>,
): [string, RuleDefinition] {
  const read = Object.keys(definition.on ?? {});
  if (read.length > 0 && read.every((signal) => signals[signal]?.plan.role === 'on_demand')) {
    throw new Error(
      `alert rule ${id} reads only ${read.join(', ')}, which ${read.length > 1 ? 'are' : 'is'} read only for domains someone opened (plan.role 'on_demand'): it would never run for the other domains — read a signal polled for every domain (role 'core' or 'history')`,
    );
  }
  return [id, definition];
}

const FILE_RULES = RULE_FILES.map(registeredRule);
const SIGNALS_BY_NAME = SIGNAL_DEFINITIONS as Readonly<Record<string, SignalDefinition>>;
const SIGNAL_RULES = signalCarriedRules(SIGNALS_BY_NAME, new Set(FILE_RULES.map(([id]) => id)));

/**
 * The rules of ./rules and of the signals' files, each checked (polledRule). The live checks' rules join them
 * above, where the live checks are known (livechecks/ruleRegistry.ts assembles the whole registry, which is
 * passed to whoever needs it: the mirror through openMirror's registry, the alert words as a catalogue).
 */
export const OWN_RULES: readonly [string, RuleDefinition][] = [...FILE_RULES, ...SIGNAL_RULES].map((rule) =>
  polledRule(rule, SIGNALS_BY_NAME),
);

const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { critical: 0, warning: 1, info: 2 };
const loudest = (d: RuleDefinition): number =>
  Math.min(...Object.values(d.alerts).map((kind) => SEVERITY_ORDER[kind.severity]));

/**
 * A rule registry: every rule by id, loudest first (a write's events are stored, and delivered, in this
 * order: a disconnection before the score drop it causes); ties in the given order.
 */
export function ruleRegistry(
  rules: readonly [string, RuleDefinition][],
): Readonly<Record<string, RuleDefinition>> {
  return Object.fromEntries([...rules].sort(([, a], [, b]) => loudest(a) - loudest(b)));
}

/** The registry name of a rule (its file's name). */
export type RuleId = string;

/** The rules' decision functions the mirror runs inside its writes, by id. Replaceable (tests inject one). */
export type AlertRules = Readonly<Record<RuleId, AnyRuleFn>>;

/** The ids of the rules a live check's writes run, in the registry's order. */
export function rulesOfLiveCheck(check: string, rules: Readonly<Record<string, RuleDefinition>>): RuleId[] {
  return Object.keys(rules).filter((id) => rules[id]!.liveCheck === check);
}

/** The ids of the rules a signal's writes run, in the registry's order. */
export function rulesReading(signal: string, rules: Readonly<Record<string, RuleDefinition>>): RuleId[] {
  return Object.keys(rules).filter((id) => Object.hasOwn(rules[id]!.on ?? {}, signal));
}

/** One alert every rule may raise: its stored name and its words. */
export interface AlertCatalogueEntry extends AlertKind {
  name: string;
  /** The rule raising it. */
  rule: RuleId;
}

/** Every alert the rules of a registry raise, by name: their words, details and severities. */
export type AlertCatalogue = ReadonlyMap<string, AlertCatalogueEntry>;

/** The catalogue of a rule registry (a name raised by two rules is a mistake it refuses, naming both). */
export function alertCatalogue(rules: Readonly<Record<string, RuleDefinition>>): AlertCatalogue {
  const byName = new Map<string, AlertCatalogueEntry>();
  for (const [rule, d] of Object.entries(rules)) {
    for (const [name, kind] of Object.entries(d.alerts)) {
      const other = byName.get(name);
      if (other) throw new Error(`alert ${name} is raised by two rules: ${other.rule} and ${rule}`);
      byName.set(name, { ...kind, name, rule });
    }
  }
  return byName;
}
