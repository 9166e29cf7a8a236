import { keytarSecretStore } from '../core/accounts/keytarSecretStore.ts';
import { memorySecretStore } from '../core/accounts/memorySecretStore.ts';
import { SecretStoreError, type SecretStore } from '../core/accounts/secretStore.ts';

/**
 * The browser host's secret store: the OS keychain when it answers, else tokens kept for this session only
 * (never a file). The first fallback says so once, in one plain line.
 */
export function hostSecretStore(
  say: (line: string) => void,
  keychain: SecretStore = keytarSecretStore(),
): SecretStore {
  const session = memorySecretStore();
  let useKeychain = true;
  const attempt = async <T>(run: (store: SecretStore) => Promise<T>): Promise<T> => {
    if (useKeychain) {
      try {
        return await run(keychain);
      } catch (error) {
        if (!(error instanceof SecretStoreError) || error.code !== 'unavailable') throw error;
        useKeychain = false;
        const cause = error.cause instanceof Error ? error.cause.message.split('\n')[0] : error.message;
        say(`authwatch: no OS keychain answers (${cause}); tokens are kept for this session only.`);
      }
    }
    return run(session);
  };
  return {
    get kind() {
      return useKeychain ? keychain.kind : 'session memory';
    },
    get: (key) => attempt((s) => s.get(key)),
    set: (key, token) => attempt((s) => s.set(key, token)),
    delete: (key) => attempt((s) => s.delete(key)),
  };
}
