import { type SecretStore, SecretStoreError } from './secretStore.ts';

/** Name of the environment variable the headless command reads its token from. */
export const TOKEN_ENV_VAR = 'AUTHWATCH_TOKEN';

/**
 * A read-only store answering every account with AUTHWATCH_TOKEN, for CI and servers without a keychain.
 * Writing is refused: the environment is the user's to set, and a token must never be written to a file here.
 */
export function envSecretStore(env: NodeJS.ProcessEnv = process.env): SecretStore {
  return {
    kind: `${TOKEN_ENV_VAR} environment variable`,
    async get() {
      const token = env[TOKEN_ENV_VAR]?.trim();
      return token ? token : null;
    },
    async set() {
      throw new SecretStoreError(
        'read_only',
        `The ${TOKEN_ENV_VAR} environment variable is read-only; set it in your shell instead.`,
      );
    },
    async delete() {
      throw new SecretStoreError(
        'read_only',
        `The ${TOKEN_ENV_VAR} environment variable is read-only; unset it in your shell instead.`,
      );
    },
  };
}
