import { z } from 'zod';
import { ACCOUNT_ALERT_CODES, accountAlertEvent, type AccountErrorReading } from '../accountAlerts.ts';
import type { AlertRuleFn } from '../types.ts';
import { alertRule } from '../ruleDefinition.ts';

/**
 * token_invalid / scope_missing / plan_not_eligible / api_access_disabled from a failed call's error code.
 * Any other error (5xx, timeouts, malformed answers) stays on the signal's sync state and raises nothing.
 */
export const accountAlertsOnError: AlertRuleFn<unknown, AccountErrorReading> = (_previous, next, ctx) => {
  const kind = ACCOUNT_ALERT_CODES[next.code];
  if (!kind) return [];
  return [accountAlertEvent(kind, ctx.accountId, ctx.accountLabel, next.scope, next.message)];
};

export default alertRule({
  alerts: {
    token_invalid: {
      label: 'Token not accepted',
      description: 'The service refused the account’s token; ends with the next call it accepts.',
      severity: 'critical',
      details: z.strictObject({}),
    },
    scope_missing: {
      label: 'Scope missing',
      description: 'The token lacks a scope a call needs; ends when a call needing it succeeds.',
      severity: 'warning',
      details: z.strictObject({ scope: z.string().nullable() }),
    },
    plan_not_eligible: {
      label: 'Plan not eligible',
      description: 'The account’s plan does not include the API; ends with the next successful call.',
      severity: 'critical',
      details: z.strictObject({}),
    },
    api_access_disabled: {
      label: 'API access disabled',
      description: 'API access is turned off for the account; ends with the next successful call.',
      severity: 'critical',
      details: z.strictObject({}),
    },
  },
  run: accountAlertsOnError,
  account: 'error',
});
