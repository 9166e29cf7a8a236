import type { SecretStore } from './secretStore.ts';

/** An in-process secret store for tests and throwaway sessions; tokens vanish with the process. */
export function memorySecretStore(initial: Record<string, string> = {}): SecretStore {
  const tokens = new Map(Object.entries(initial));
  return {
    kind: 'memory',
    async get(accountKey) {
      return tokens.get(accountKey) ?? null;
    },
    async set(accountKey, token) {
      tokens.set(accountKey, token);
    },
    async delete(accountKey) {
      return tokens.delete(accountKey);
    },
  };
}
