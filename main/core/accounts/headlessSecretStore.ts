import { envSecretStore, TOKEN_ENV_VAR } from './envSecretStore.ts';
import { fallbackSecretStore } from './fallbackSecretStore.ts';
import { keytarSecretStore } from './keytarSecretStore.ts';
import type { SecretStore } from './secretStore.ts';
import { sessionSecretStore } from './sessionSecretStore.ts';

/**
 * The secret store of the shells without Electron (the `authwatch` command, the browser host):
 * AUTHWATCH_TOKEN when set; else the OS keychain; when keytar is missing or no keychain answers, tokens for
 * this session only — said once in one line, never a plain-text file.
 */
export function headlessSecretStore(
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
  keychain: SecretStore = keytarSecretStore(),
): SecretStore {
  if (env[TOKEN_ENV_VAR]?.trim()) return envSecretStore(env);
  return fallbackSecretStore(keychain, () => sessionSecretStore(), say);
}
