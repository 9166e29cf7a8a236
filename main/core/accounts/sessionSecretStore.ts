import { memorySecretStore } from './memorySecretStore.ts';
import type { SecretStore } from './secretStore.ts';

/**
 * Tokens kept in this process only: the last resort when neither a keychain nor an encrypted file can hold
 * them. Never written anywhere; the user enters the token again after a restart.
 */
export function sessionSecretStore(why?: string): SecretStore {
  const store = memorySecretStore();
  return {
    kind: `memory for this session only${why ? `, because ${why}` : ''} (not saved: enter the token again after a restart)`,
    get: (key) => store.get(key),
    set: (key, token) => store.set(key, token),
    delete: (key) => store.delete(key),
  };
}
