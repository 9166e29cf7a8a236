import { type SecretStore, SecretStoreError } from './secretStore.ts';

/** Service name under which every Authwatch token is filed in the OS keychain. */
export const KEYCHAIN_SERVICE = 'Authwatch';

/** The part of keytar's API we use. */
export interface KeytarModule {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** Loads keytar; its native binding may be missing or built for another ABI, so loading is deferred. */
async function importKeytar(): Promise<KeytarModule> {
  const mod = (await import('keytar')) as unknown as KeytarModule & { default?: KeytarModule };
  // keytar is CommonJS: under ESM its functions sit on the default export.
  return mod.default ?? mod;
}

/**
 * Tokens in the OS keychain (macOS Keychain, Windows Credential Vault, libsecret on Linux) through keytar.
 * keytar is loaded on first use; failures to load it or to reach a keychain become SecretStoreError
 * 'unavailable' with a message saying what to do, so a shell can fall back to another store.
 */
export function keytarSecretStore(
  options: { service?: string; load?: () => Promise<KeytarModule> } = {},
): SecretStore {
  const service = options.service ?? KEYCHAIN_SERVICE;
  const load = options.load ?? importKeytar;
  let loading: Promise<KeytarModule> | undefined;

  function keytar(): Promise<KeytarModule> {
    loading ??= load().catch((cause: unknown) => {
      loading = undefined;
      throw new SecretStoreError(
        'unavailable',
        `The OS keychain cannot be used: the keytar module failed to load (${describe(cause)}). ` +
          'On Linux install libsecret (libsecret-1-0) and rebuild keytar, or set AUTHWATCH_TOKEN.',
        { cause, summary: `keytar failed to load: ${describe(cause)}` },
      );
    });
    return loading;
  }

  async function call<T>(what: string, run: (k: KeytarModule) => Promise<T>): Promise<T> {
    const k = await keytar();
    try {
      return await run(k);
    } catch (cause) {
      throw new SecretStoreError(
        'unavailable',
        `The OS keychain could not ${what} (${describe(cause)}). ` +
          'Is a keychain running and unlocked (on Linux: gnome-keyring or KWallet on a D-Bus session)? ' +
          'Otherwise set AUTHWATCH_TOKEN.',
        { cause, summary: `no keychain answered: ${describe(cause)}` },
      );
    }
  }

  return {
    kind: 'OS keychain',
    get: (accountKey) => call('read a token', (k) => k.getPassword(service, accountKey)),
    set: (accountKey, token) => call('store a token', (k) => k.setPassword(service, accountKey, token)),
    delete: (accountKey) => call('delete a token', (k) => k.deletePassword(service, accountKey)),
  };
}

/** First line of an error's message; keytar errors never contain the secret itself. */
function describe(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause);
  return text.split('\n')[0]?.slice(0, 200) || 'unknown error';
}
