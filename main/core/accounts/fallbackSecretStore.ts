import { type SecretStore, SecretStoreError } from './secretStore.ts';

/** A store to fall back to, made on first need (it may probe Electron's safeStorage, or pick memory). */
export type FallbackFactory = (why: SecretStoreError) => SecretStore | Promise<SecretStore>;

/**
 * The secret-store chain: `primary` (the OS keychain) until it reports 'unavailable' (keytar missing, no
 * keychain answering), then the fallback for the rest of the process. The switch is announced once, in one
 * plain line naming why and where tokens go now. Other failures (a read-only store, a real error) are not
 * hidden by a fallback.
 */
export function fallbackSecretStore(
  primary: SecretStore,
  fallback: FallbackFactory,
  say: (line: string) => void,
): SecretStore {
  let active: SecretStore = primary;
  let switching: Promise<SecretStore> | undefined;

  const switchOver = (why: SecretStoreError): Promise<SecretStore> => {
    switching ??= Promise.resolve(fallback(why)).then((store) => {
      active = store;
      say(`Authwatch: ${oneLine(why)}; tokens are kept in ${store.kind}.`);
      return store;
    });
    return switching;
  };

  const attempt = async <T>(run: (store: SecretStore) => Promise<T>): Promise<T> => {
    if (active === primary && !switching) {
      try {
        return await run(primary);
      } catch (error) {
        if (!(error instanceof SecretStoreError) || error.code !== 'unavailable') throw error;
        return run(await switchOver(error));
      }
    }
    return run(switching ? await switching : active);
  };

  return {
    get kind() {
      return active.kind;
    },
    get: (key) => attempt((s) => s.get(key)),
    set: (key, token) => attempt((s) => s.set(key, token)),
    delete: (key) => attempt((s) => s.delete(key)),
  };
}

/** "the OS keychain cannot be used (keytar failed to load: …)" — one line, no advice paragraphs. */
function oneLine(error: SecretStoreError): string {
  return `the OS keychain cannot be used (${error.summary.replace(/\s+/g, ' ').trim().slice(0, 200)})`;
}
