import type { AlertRuleName } from '../../../shared/bridge/results.ts';
import type { AlertSettings } from '../signals/ruleVocabulary.ts';

/**
 * The names of the alerts rules raise (account rules from sync errors, the others from signal writes): the
 * bridge contract's list, which the renderer filters and words by.
 */
export type { AlertRuleName };

/** The account-level alert kinds (raised from sync errors, not from signal data). */
export type AccountAlertKind =
  'token_invalid' | 'scope_missing' | 'plan_not_eligible' | 'api_access_disabled';

/** The rule engine's vocabulary, declared below signals/ (a signal's definition carries its rules). */
export type {
  AlertDomain,
  AlertEvent,
  AlertRuleFn,
  AlertSettings,
  LatestDnsEvents,
  OpenAlertView,
  RaiseEvent,
  ResolveEvent,
  RuleContext,
  Severity,
  WatchedDns,
} from '../signals/ruleVocabulary.ts';

/** The defaults: step 1.0, floor 5.0 (half the 0–10 scale), no quiet hours. */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  scoreStep: 1,
  scoreFloor: 5,
  quietHours: null,
  quietHoldsCriticals: false,
  editSilenceMinutes: 30,
  timeZone: null,
};
