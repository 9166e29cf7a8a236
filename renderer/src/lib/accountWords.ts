import type { AccountIdentity, TokenCheck } from '../../../shared/bridge/results.ts';
import { networkSentence } from '../../../shared/bridge/network.ts';
import { fieldsOf } from './shape.ts';

/** A problem with an account or token, in plain words, with what to do about it. */
export interface AccountProblem {
  /** One line: what went wrong. */
  title: string;
  /** What to do next. */
  action: string;
  /** The form field the problem belongs to, when it belongs to one. */
  field: 'label' | 'baseUrl' | 'token' | null;
}

/** The scopes without which the app cannot watch anything. */
export const REQUIRED_SCOPES = ['account:read', 'domains:read'] as const;
/** Read scopes that make every screen work (team, tokens, profile). */
export const RECOMMENDED_SCOPES = [
  'account:read',
  'me:read',
  'domains:read',
  'users:read',
  'tokens:read',
] as const;
/** Scopes the editing forms need. */
export const WRITE_SCOPES = ['domains:write', 'users:write', 'tokens:write', 'me:write'] as const;

/** What each scope lets the app do, for the scope list. */
export const SCOPE_USES: Record<string, string> = {
  'account:read': 'who the token belongs to, the audit log',
  'me:read': 'your profile and permissions',
  'domains:read': 'the domains and everything watched on them',
  'users:read': 'the team’s users and roles',
  'tokens:read': 'the team’s API tokens',
  'domains:write': 'editing records, domains and groups',
  'users:write': 'managing team users',
  'tokens:write': 'creating and revoking tokens',
  'me:write': 'editing your profile',
};

/** Which of the required, recommended and write scopes a token holds and lacks. */
export function scopeReport(scopes: readonly string[]): {
  missingRequired: string[];
  missingRecommended: string[];
  missingWrite: string[];
  canEdit: boolean;
} {
  const has = new Set(scopes);
  const missing = (list: readonly string[]) => list.filter((s) => !has.has(s));
  const missingRequired = missing(REQUIRED_SCOPES);
  return {
    missingRequired,
    missingRecommended: missing(RECOMMENDED_SCOPES).filter((s) => !missingRequired.includes(s)),
    missingWrite: missing(WRITE_SCOPES),
    canEdit: has.has('domains:write'),
  };
}

/** Plain words for a failed token check or a failed add/update (bridge error code, API code, message). */
export function explainAccountProblem(input: {
  code: string;
  message?: string;
  /** The API's error code when the bridge error wraps one (details.code). */
  apiCode?: string | null;
  status?: number | null;
}): AccountProblem {
  const code = input.apiCode ?? input.code;
  const message = input.message ?? '';
  switch (code) {
    case 'invalid_api_token':
    case 'missing_api_token':
    case 'token_invalid':
      return {
        title: 'The service does not accept this token: it is unknown, revoked or expired.',
        action:
          'Create a new API token in the service’s settings (API tokens), copy it and paste it here. Tokens are shown only once when they are created.',
        field: 'token',
      };
    case 'token_missing':
      return {
        title: 'No token is stored for this account on this computer.',
        action: 'Paste the account’s API token with “Replace token”.',
        field: 'token',
      };
    case 'api_access_disabled':
      return {
        title: 'API access is turned off for this account.',
        action:
          'A team owner can turn API access on in the service’s account settings; then test the account again.',
        field: null,
      };
    case 'api_plan_not_eligible':
      return {
        title: 'This account’s plan does not include API access (Comply and trial plans are not eligible).',
        action: 'API access comes with the Protect and Suite plans: upgrade the plan, then test again.',
        field: null,
      };
    case 'insufficient_scope':
      return {
        title: 'The token lacks the account:read scope, so the app cannot check whose token it is.',
        action: `Create a token with at least ${REQUIRED_SCOPES.join(' and ')} (better: every read scope) and paste it here.`,
        field: 'token',
      };
    case 'invalid_base_url':
      return {
        title: message || 'The base URL is not a valid address.',
        action: 'Paste the API address, e.g. https://host/api/v1 (https://host and …/v1 work too).',
        field: 'baseUrl',
      };
    case 'network_error':
    case 'timeout': {
      // A proxy or a certificate stopped it: the network layer's words say which, and what to change.
      const sentence = networkSentence(message);
      if (sentence)
        return {
          title: sentence,
          action:
            'Settings → Network chooses the proxy and the certificate authorities this app trusts; your network administrator knows the right ones.',
          field: null,
        };
      return {
        title:
          code === 'timeout'
            ? 'The service did not answer in time.'
            : 'The service cannot be reached at this address.',
        action: 'Check the base URL and your network connection (VPN, proxy, firewall), then try again.',
        field: 'baseUrl',
      };
    }
    case 'malformed_response':
    case 'http_error':
      return {
        title: 'The address answered, but not as the v1 API does (no valid identity from /auth/me).',
        action: 'Check that the base URL points at the API (it usually ends in /api/v1), not at the website.',
        field: 'baseUrl',
      };
    case 'not_found':
      return {
        title: 'The address answered “not found” for /auth/me.',
        action: 'Check the base URL: it usually ends in /api/v1.',
        field: 'baseUrl',
      };
    case 'conflict':
      return {
        title: message || 'An account with this label already exists.',
        action:
          'Choose another label (e.g. the client’s name), or replace the token of the existing account.',
        field: 'label',
      };
    case 'invalid_arguments':
      return {
        title: message || 'Some fields are not valid.',
        action: 'Correct the field and try again.',
        field: /baseUrl/.test(message)
          ? 'baseUrl'
          : /token/.test(message)
            ? 'token'
            : /label/.test(message)
              ? 'label'
              : null,
      };
    case 'secret_store':
      return {
        title: 'The token could not be stored in the system keychain.',
        action: `Unlock the keychain (or check that a secret service runs) and try again. ${message}`.trim(),
        field: null,
      };
    case 'rate_limited':
      return {
        title: 'The token’s rate limit is used up for the moment.',
        action: 'Wait a minute and try again.',
        field: null,
      };
    default:
      if (input.status !== null && input.status !== undefined && input.status >= 500)
        return {
          title: 'The service had an internal error while checking the token.',
          action: 'Try again in a few minutes; if it persists, contact the service’s support.',
          field: null,
        };
      return {
        title: message || `The token could not be checked (${code}).`,
        action: 'Check the base URL and the token, then try again.',
        field: null,
      };
  }
}

/** Plain words for an error thrown by addAccount/updateAccount (a BridgeError-like value). */
export function explainBridgeError(error: unknown): AccountProblem {
  const e = fieldsOf(error);
  const details = fieldsOf(e.details);
  return explainAccountProblem({
    code: typeof e.code === 'string' ? e.code : 'unexpected_error',
    message: typeof e.message === 'string' ? e.message : String(error),
    apiCode: typeof details.code === 'string' && e.code === 'api_error' ? details.code : null,
    status: typeof details.status === 'number' ? details.status : null,
  });
}

/** Plain words for a failed testAccount answer. */
export function explainTokenCheck(check: Extract<TokenCheck, { ok: false }>): AccountProblem {
  return explainAccountProblem({ code: check.code, message: check.message, status: check.status });
}

/** Why an account is paused, in words. */
export function pausedWords(reason: string): string {
  switch (reason) {
    case 'token_invalid':
      return 'Paused: the service no longer accepts the token (revoked or expired).';
    case 'token_missing':
      return 'Paused: no token is stored for this account on this computer.';
    case 'api_plan_not_eligible':
      return 'Paused: the plan no longer includes API access.';
    case 'api_access_disabled':
      return 'Paused: API access was turned off for the account.';
    default:
      return `Paused: ${reason.replaceAll('_', ' ')}.`;
  }
}

/** "Owner" / "Member" / "unknown" for the identity's role in its team. */
export function ownerWords(identity: AccountIdentity): string {
  return identity.isTeamOwner === true
    ? 'team owner'
    : identity.isTeamOwner === false
      ? 'team member (not the owner: team users and roles are owner-only)'
      : 'role unknown';
}
