import { accountAlertKey } from './keys.ts';
import type { AccountAlertKind, AlertEvent, Severity } from './types.ts';

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
