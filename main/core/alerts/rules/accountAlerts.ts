import { accountAlertKey } from '../keys.ts';
import type { AccountAlertKind, AlertEvent, AlertRuleFn, Severity } from '../types.ts';

/** A failed call, as far as account alerts care. */
export interface AccountErrorReading {
  code: string;
  message: string;
  /** The scope the call needed (or the one the server said was missing). */
  scope: string | null;
}

/** A successful call: the scope it proved the token has. */
export interface AccountSuccessReading {
  scope: string | null;
}

/** Which error codes of the interface mean which account alert. Other codes are per-signal trouble. */
export const ACCOUNT_ALERT_CODES: Readonly<Record<string, AccountAlertKind>> = {
  invalid_api_token: 'token_invalid',
  missing_api_token: 'token_invalid',
  insufficient_scope: 'scope_missing',
  api_plan_not_eligible: 'plan_not_eligible',
  api_access_disabled: 'api_access_disabled',
};

const SEVERITY: Record<AccountAlertKind, Severity> = {
  token_invalid: 'critical',
  plan_not_eligible: 'critical',
  api_access_disabled: 'critical',
  scope_missing: 'warning',
};

/** The alert for an account-level condition (shared by sync errors and explicit raises). */
export function accountAlertEvent(
  kind: AccountAlertKind,
  accountId: number,
  accountLabel: string,
  scope: string | null,
  serverMessage: string | undefined,
): AlertEvent {
  const texts: Record<AccountAlertKind, { title: string; body: string }> = {
    token_invalid: {
      title: `API token of ${accountLabel} is not accepted`,
      body: `The service rejects the API token of ${accountLabel} (unknown, revoked or expired). Polling stops until you enter a new token.`,
    },
    scope_missing: {
      title: `API token of ${accountLabel} lacks the ${scope ?? 'needed'} scope`,
      body: `The API token of ${accountLabel} is missing the ${scope ?? 'needed'} scope, so some data cannot be read. Create a token with that scope.`,
    },
    plan_not_eligible: {
      title: `The plan of ${accountLabel} has no API access`,
      body: `The account ${accountLabel} is on a plan without API access (Comply and trial plans). Protect and Suite plans have it.`,
    },
    api_access_disabled: {
      title: `API access is disabled for ${accountLabel}`,
      body: `API access is turned off for the account ${accountLabel}. An account owner can enable it.`,
    },
  };
  const text = texts[kind];
  return {
    type: 'raise',
    rule: kind,
    severity: SEVERITY[kind],
    dedupeKey: accountAlertKey(accountId, kind, scope),
    domain: null,
    title: text.title,
    body: serverMessage ? `${text.body} The service said: ${serverMessage}` : text.body,
    details: kind === 'scope_missing' ? { scope } : {},
  };
}

/**
 * token_invalid / scope_missing / plan_not_eligible / api_access_disabled from a failed call's error code.
 * Any other error (5xx, timeouts, malformed answers) stays on the signal's sync state and raises nothing.
 */
export const accountAlertsOnError: AlertRuleFn<unknown, AccountErrorReading> = (_previous, next, ctx) => {
  const kind = ACCOUNT_ALERT_CODES[next.code];
  if (!kind) return [];
  return [accountAlertEvent(kind, ctx.accountId, ctx.accountLabel, next.scope, next.message)];
};

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
