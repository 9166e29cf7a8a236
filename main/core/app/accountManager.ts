// The facade's account service, in app/ because it speaks the facade's errors (AuthwatchError) and the
// bridge's account views; accounts/ holds the stores and checks it uses.
import type { TokenProvider } from '../../../shared/api/tokenProvider.ts';
import { normalizeBaseUrl } from '../../../shared/api/baseUrl.ts';
import { AuthwatchError } from './authwatchError.ts';
import type { Account, Mirror } from '../mirror/types.ts';
import type { LooseApi } from '../sync/looseApi.ts';
import { panelRequestKey } from '../../../shared/bridge/panels.ts';
import { accountKey } from '../accounts/accountKey.ts';
import { parseIdentity } from '../accounts/identity.ts';
import type { AccountIdentity, AccountView, TokenCheck } from '../../../shared/bridge/results.ts';
import { recordTokenExpiry } from '../accounts/tokenExpiryRecord.ts';
import { SecretStoreError, type SecretStore } from '../accounts/secretStore.ts';

/** Makes an API client for a base URL and token (the facade wires fetch, clock and budgets in). */
export type ApiFactory = (options: { baseUrl: string; token: TokenProvider; accountId?: number }) => LooseApi;

/** Profiles in the mirror, tokens in the SecretStore, checked against the service before saving. */
export class AccountManager {
  constructor(
    private readonly mirror: Mirror,
    private readonly secrets: SecretStore,
    private readonly makeApi: ApiFactory,
  ) {}

  /** Every account. */
  list(): AccountView[] {
    return this.mirror.listAccounts().map(view);
  }

  /** The account with this id, or a not_found AuthwatchError. */
  get(accountId: number): Account {
    const account = this.mirror.listAccounts().find((a) => a.id === accountId);
    if (!account) throw new AuthwatchError('not_found', `No account with id ${accountId}.`);
    return account;
  }

  /** Reads the stored token of an account for the API client; throws when none is stored. */
  tokenProvider(account: Pick<Account, 'label' | 'baseUrl'>): () => Promise<string> {
    const key = accountKey(account);
    return async () => {
      const token = await this.secrets.get(key);
      if (!token) throw new Error(`no token is stored for “${account.label}” in the ${this.secrets.kind}`);
      return token;
    };
  }

  /**
   * Checks a token against a base URL with GET /auth/me; never throws for API failures. An answer that is
   * not a valid identity fails the check: an account is never saved on the word of a garbage answer.
   */
  async check(baseUrl: string, token: TokenProvider): Promise<TokenCheck> {
    return (await this.checkAnswer(baseUrl, token)).check;
  }

  /** check(), with the answer's data when the identity is valid (kept with the account: keepIdentity). */
  private async checkAnswer(
    baseUrl: string,
    token: TokenProvider,
  ): Promise<{ check: TokenCheck; data?: unknown }> {
    let answer: unknown;
    const check = await this.checkToken(baseUrl, token, (data) => (answer = data));
    return check.ok ? { check, data: answer } : { check };
  }

  /**
   * Keeps the token's identity with its account (the mirror's copy of the auth_me panel): who silences and
   * acknowledgements made in the app are recorded as, and what the Accounts page shows offline.
   */
  private keepIdentity(accountId: number, data: unknown): void {
    this.mirror.putPanel({
      accountId,
      requestKey: panelRequestKey('auth_me'),
      panel: 'auth_me',
      domainId: null,
      payload: { data, pagination: null },
    });
  }

  private async checkToken(
    baseUrl: string,
    token: TokenProvider,
    keep: (data: unknown) => void,
  ): Promise<TokenCheck> {
    try {
      const result = await this.makeApi({ baseUrl, token }).get('/auth/me', { priority: 'foreground' });
      const identity = parseIdentity(result.data);
      if (identity) {
        keep(result.data);
        return { ok: true, identity };
      }
      return {
        ok: false,
        code: 'malformed_response',
        status: result.status,
        message: 'GET /auth/me did not answer with a valid identity (user, team and token scopes).',
      };
    } catch (error) {
      const e = error as { code?: string; status?: number; message?: string };
      return {
        ok: false,
        code: e.code ?? 'unexpected_error',
        status: e.status ?? 0,
        message: e.message ?? String(error),
      };
    }
  }

  /** Adds an account after GET /auth/me accepted its token; the token goes to the SecretStore only. */
  async add(input: {
    label: string;
    baseUrl: string;
    token: string;
  }): Promise<{ account: AccountView; identity: AccountIdentity }> {
    const baseUrl = normalizeBaseUrl(input.baseUrl);
    const label = input.label.trim();
    if (this.mirror.listAccounts().some((a) => a.label === label)) {
      throw new AuthwatchError('conflict', `An account named “${label}” already exists.`);
    }
    const { check: checked, data } = await this.checkAnswer(baseUrl, input.token);
    if (!checked.ok) throw rejected(checked);
    const account = this.mirror.upsertAccount({ label, baseUrl });
    try {
      await this.secrets.set(accountKey(account), input.token);
    } catch (error) {
      // Without a stored token the account could never sync: undo the profile rather than keep half of it.
      this.mirror.removeAccount(account.id);
      throw error;
    }
    this.keepIdentity(account.id, data);
    recordTokenExpiry(this.mirror, account.id, checked.identity, Date.now());
    return { account: view(account), identity: checked.identity };
  }

  /** Checks the stored token of an account (GET /auth/me). */
  async test(accountId: number): Promise<TokenCheck> {
    const account = this.get(accountId);
    const { check, data } = await this.checkAnswer(account.baseUrl, this.tokenProvider(account));
    if (check.ok) {
      this.keepIdentity(account.id, data);
      recordTokenExpiry(this.mirror, accountId, check.identity, Date.now());
    }
    return check;
  }

  /**
   * Renames an account, points it at another base URL and/or replaces its token. A new token is checked
   * first; the secret moves with the label/base URL. Resumes a paused account when the token is accepted.
   */
  async update(input: {
    accountId: number;
    label?: string;
    baseUrl?: string;
    token?: string;
  }): Promise<AccountView> {
    const before = this.get(input.accountId);
    const label = input.label?.trim() ?? before.label;
    const baseUrl = input.baseUrl !== undefined ? normalizeBaseUrl(input.baseUrl) : before.baseUrl;
    if (label !== before.label && this.mirror.listAccounts().some((a) => a.label === label)) {
      throw new AuthwatchError('conflict', `An account named “${label}” already exists.`);
    }
    const oldKey = accountKey(before);
    const token = input.token ?? (await this.secrets.get(oldKey));
    let identity: AccountIdentity | null = null;
    let answer: unknown;
    if (input.token !== undefined || baseUrl !== before.baseUrl) {
      if (!token)
        throw new AuthwatchError('invalid_arguments', 'A token is needed to check the new settings.');
      const { check: checked, data } = await this.checkAnswer(baseUrl, token);
      if (!checked.ok) throw rejected(checked);
      identity = checked.identity;
      answer = data;
    }
    const after = this.mirror.upsertAccount({ id: before.id, label, baseUrl });
    if (identity) this.keepIdentity(after.id, answer);
    const newKey = accountKey(after);
    if (token && (newKey !== oldKey || input.token !== undefined)) {
      await this.secrets.set(newKey, token);
      if (newKey !== oldKey) await this.secrets.delete(oldKey).catch(() => false);
    }
    if (input.token !== undefined && after.pausedReason) this.mirror.setAccountPaused(after.id, null);
    // A new token may hold scopes the old one lacked: signals stopped for a scope are tried at the next
    // tick rather than a day later, and the scope alerts the new token answers are resolved now.
    if (input.token !== undefined && identity) this.mirror.clearScopeHolds(after.id, identity.scopes);
    if (identity) recordTokenExpiry(this.mirror, after.id, identity, Date.now());
    return view(this.get(after.id));
  }

  /** Removes the account, its mirrored data and its stored token. */
  async remove(accountId: number): Promise<{ removed: boolean; secretDeleted: boolean }> {
    const account = this.get(accountId);
    // The secret first: a token must not outlive its account in the keychain.
    let secretDeleted: boolean;
    try {
      secretDeleted = await this.secrets.delete(accountKey(account));
    } catch (error) {
      // A read-only store (AUTHWATCH_TOKEN) holds nothing of ours; any other failure must stop the removal
      // so that no token is left behind in a keychain unknowingly.
      if (!(error instanceof SecretStoreError && error.code === 'read_only')) throw error;
      secretDeleted = false;
    }
    return { removed: this.mirror.removeAccount(accountId), secretDeleted };
  }
}

function view(account: Account): AccountView {
  return {
    id: account.id,
    label: account.label,
    baseUrl: account.baseUrl,
    createdAt: account.createdAt,
    pausedReason: account.pausedReason,
  };
}

function rejected(check: Extract<TokenCheck, { ok: false }>): AuthwatchError {
  const why: Record<string, string> = {
    invalid_api_token: 'The service does not accept this token (unknown, revoked or expired).',
    missing_api_token: 'No token was given.',
    api_plan_not_eligible:
      'The account is on a plan without API access (Comply and trial plans are not eligible).',
    api_access_disabled: 'API access is disabled for this account.',
    insufficient_scope: 'The token lacks the account:read scope needed to check it.',
    malformed_response:
      'The service did not say whose token this is (GET /auth/me gave no valid identity); nothing was saved.',
  };
  return new AuthwatchError(
    'api_error',
    why[check.code] ?? `The token could not be checked: ${check.message}`,
    {
      code: check.code,
      status: check.status,
    },
  );
}
