import {
  fallbackSecretStore,
  keytarSecretStore,
  type SecretStore,
  sessionSecretStore,
} from '../core/index.ts';
import {
  safeStorageProblem,
  safeStorageSecretStore,
  type SafeStorageLike,
} from './safeStorageSecretStore.ts';

/**
 * The desktop app's secret-store chain: the OS keychain through keytar; when keytar cannot load or no
 * keychain answers, a safeStorage-encrypted file in userData; when safeStorage has no real encryption
 * (basic_text), the session only. Each step down is said once, in one line. Never plain text on disk.
 */
export function desktopSecretStore(options: {
  safeStorage: SafeStorageLike;
  userDataDir: string;
  platform: NodeJS.Platform;
  say: (line: string) => void;
  keychain?: SecretStore;
}): SecretStore {
  return fallbackSecretStore(
    options.keychain ?? keytarSecretStore(),
    () => {
      const problem = safeStorageProblem(options.safeStorage, options.platform);
      return problem
        ? sessionSecretStore(problem)
        : safeStorageSecretStore(options.safeStorage, options.userDataDir);
    },
    options.say,
  );
}
