/**
 * The whole rule registry: the rules of alerts/rules and of the signals' files (alerts/ruleSet.ts) with the
 * live checks' (./registry.ts), assembled here, the lowest folder that knows them all. It is passed down, never
 * imported from below: the runtime opens the mirror with it (runtime/registry.ts's MIRROR_REGISTRY), and the
 * words of alerts (status, delivery, notifications) are given its catalogue.
 */
import { alertCatalogue, OWN_RULES, ruleRegistry, type AlertRules } from '../alerts/ruleSet.ts';
import { LIVE_CHECKS, liveCheckRules } from './registry.ts';

/** Every rule, by id, loudest first. */
export const RULE_DEFINITIONS = ruleRegistry([
  ...OWN_RULES,
  ...liveCheckRules(LIVE_CHECKS, new Set(OWN_RULES.map(([id]) => id))),
]);

/** Every rule's decision function, by id. */
export const DEFAULT_RULES: AlertRules = Object.fromEntries(
  Object.entries(RULE_DEFINITIONS).map(([id, d]) => [id, d.run]),
);

/** Every alert any rule raises, by name. */
export const ALERT_CATALOGUE = alertCatalogue(RULE_DEFINITIONS);

/** True when some rule raises alerts of this name. */
export function isAlertName(name: string): boolean {
  return ALERT_CATALOGUE.has(name);
}
