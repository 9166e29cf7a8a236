import { fallbackSecretStore } from '../core/accounts/fallbackSecretStore.ts';
import { keytarSecretStore } from '../core/accounts/keytarSecretStore.ts';
import type { SecretStore } from '../core/accounts/secretStore.ts';
import { sessionSecretStore } from '../core/accounts/sessionSecretStore.ts';
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
