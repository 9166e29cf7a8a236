import { accountAlertsOnError } from './rules/accountAlertsOnError.ts';
import { accountAlertsOnSuccess } from './rules/accountAlertsOnSuccess.ts';
import { dmarcPolicyWeakened } from './rules/dmarcPolicyWeakened.ts';
import { healthRegressed } from './rules/healthRegressed.ts';
import { protocolDisconnected } from './rules/protocolDisconnected.ts';
import { protocolRestored } from './rules/protocolRestored.ts';
import { scoreDropped } from './rules/scoreDropped.ts';
import { threatSourceAppeared } from './rules/threatSourceAppeared.ts';

/**
 * The rule registry: every rule of ./rules, one file each, exported under its file's name. A signal names
 * the rules its writes run (signals/defs/*), the mirror runs the account rules itself; a rule file that is
 * not listed here fails the unit suite (test/unit/core/alerts/ruleRegistry.test.ts), and a signal naming a
 * rule that is not listed here fails the typecheck.
 */
export const DEFAULT_RULES = {
  protocolDisconnected,
  protocolRestored,
  threatSourceAppeared,
  scoreDropped,
  healthRegressed,
  dmarcPolicyWeakened,
  accountAlertsOnError,
  accountAlertsOnSuccess,
};

/** The rules the mirror runs inside its writes. Replaceable (tests inject a failing rule). */
export type AlertRules = typeof DEFAULT_RULES;

/** The registry name of a rule. */
export type RuleId = keyof AlertRules;

/** The rules the mirror runs on every account-level outcome, whichever signal it was (not read by signals). */
export const ACCOUNT_RULES: readonly RuleId[] = ['accountAlertsOnError', 'accountAlertsOnSuccess'];
