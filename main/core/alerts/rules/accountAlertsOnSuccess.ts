import type { AccountSuccessReading } from '../accountAlerts.ts';
import { accountAlertKey } from '../keys.ts';
import type { AlertEvent, AlertRuleFn } from '../types.ts';
import { alertRule } from '../ruleDefinition.ts';

/**
 * A successful call proves the token is valid, the plan eligible and API access on, and that the token holds
 * the call's scope: those open account alerts resolve.
 */
export const accountAlertsOnSuccess: AlertRuleFn<unknown, AccountSuccessReading> = (_previous, next, ctx) => {
  const events: AlertEvent[] = [];
  for (const kind of ['token_invalid', 'plan_not_eligible', 'api_access_disabled'] as const) {
    const key = accountAlertKey(ctx.accountId, kind);
    if (ctx.openAlerts.has(key)) events.push({ type: 'resolve', dedupeKey: key });
  }
  const scopeKey = accountAlertKey(ctx.accountId, 'scope_missing', next.scope);
  if (ctx.openAlerts.has(scopeKey)) events.push({ type: 'resolve', dedupeKey: scopeKey });
  return events;
};

// It raises nothing: it ends what accountAlertsOnError raised.
export default alertRule({ alerts: {}, run: accountAlertsOnSuccess, account: 'success' });
