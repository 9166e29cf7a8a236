import { accountAlertsOnError, accountAlertsOnSuccess } from './rules/accountAlerts.ts';
import { healthRegressed } from './rules/healthRegressed.ts';
import { protocolDisconnected } from './rules/protocolDisconnected.ts';
import { protocolRestored } from './rules/protocolRestored.ts';
import { scoreDropped } from './rules/scoreDropped.ts';
import { threatSourceAppeared } from './rules/threatSourceAppeared.ts';

/** The rules the mirror runs inside its writes. Replaceable (tests inject a failing rule). */
export interface AlertRules {
  protocolDisconnected: typeof protocolDisconnected;
  protocolRestored: typeof protocolRestored;
  threatSourceAppeared: typeof threatSourceAppeared;
  scoreDropped: typeof scoreDropped;
  healthRegressed: typeof healthRegressed;
  accountAlertsOnError: typeof accountAlertsOnError;
  accountAlertsOnSuccess: typeof accountAlertsOnSuccess;
}

/** The production rule set. */
export const DEFAULT_RULES: AlertRules = {
  protocolDisconnected,
  protocolRestored,
  threatSourceAppeared,
  scoreDropped,
  healthRegressed,
  accountAlertsOnError,
  accountAlertsOnSuccess,
};
