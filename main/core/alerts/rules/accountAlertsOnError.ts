import { ACCOUNT_ALERT_CODES, accountAlertEvent, type AccountErrorReading } from '../accountAlerts.ts';
import type { AlertRuleFn } from '../types.ts';

/**
 * token_invalid / scope_missing / plan_not_eligible / api_access_disabled from a failed call's error code.
 * Any other error (5xx, timeouts, malformed answers) stays on the signal's sync state and raises nothing.
 */
export const accountAlertsOnError: AlertRuleFn<unknown, AccountErrorReading> = (_previous, next, ctx) => {
  const kind = ACCOUNT_ALERT_CODES[next.code];
  if (!kind) return [];
  return [accountAlertEvent(kind, ctx.accountId, ctx.accountLabel, next.scope, next.message)];
};
