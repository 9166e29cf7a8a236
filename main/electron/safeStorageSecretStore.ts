import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SecretStore, SecretStoreError } from '../core/index.ts';

/** The part of Electron's safeStorage we use. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which secret service backs the encryption key. */
  getSelectedStorageBackend?(): string;
}

/** The ciphertext file in userData. Keys are "label@baseUrl" (as in the keychain); values never plain text. */
export const TOKENS_FILE = 'tokens.enc.json';

interface TokensFile {
  version: 1;
  /** accountKey → base64 of safeStorage's ciphertext. */
  tokens: Record<string, string>;
}

/**
 * Why safeStorage cannot protect a token on this machine, or null when it can. On Linux without a secret
 * service Chromium falls back to `basic_text`, a fixed key compiled into every copy: encrypting with it
 * would be plain text with extra steps, so we refuse it.
 */
export function safeStorageProblem(safeStorage: SafeStorageLike, platform: NodeJS.Platform): string | null {
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text')
    return "Electron's safeStorage has only its basic_text backend here (no secret service), which is not encryption";
  if (!safeStorage.isEncryptionAvailable()) return "Electron's safeStorage cannot encrypt on this machine";
  return null;
}

/**
 * Tokens encrypted with Electron's safeStorage (the OS's own key: Keychain on macOS, DPAPI on Windows, the
 * secret service on Linux) in one file under userData, written atomically and readable by the user only.
 */
export function safeStorageSecretStore(safeStorage: SafeStorageLike, dir: string): SecretStore {
  const file = join(dir, TOKENS_FILE);

  const read = (): TokensFile => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, tokens: {} };
      throw new SecretStoreError('failed', `Cannot read ${file}: ${(error as Error).message}`);
    }
    try {
      const parsed = JSON.parse(text) as Partial<TokensFile>;
      if (parsed.version !== 1 || typeof parsed.tokens !== 'object' || !parsed.tokens)
        throw new Error('bad shape');
      return { version: 1, tokens: parsed.tokens };
    } catch {
      throw new SecretStoreError('failed', `${file} is damaged; remove it and enter the tokens again.`);
    }
  };

  const write = (data: TokensFile) => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(data), { mode: 0o600 });
    renameSync(temp, file);
  };

  return {
    kind: 'an encrypted file (Electron safeStorage)',
    async get(key) {
      const sealed = read().tokens[key];
      if (sealed === undefined) return null;
      try {
        return safeStorage.decryptString(Buffer.from(sealed, 'base64'));
      } catch (error) {
        // Another user's or machine's key: the token cannot be recovered, only entered again.
        throw new SecretStoreError(
          'failed',
          `The stored token cannot be decrypted (${(error as Error).message}).`,
        );
      }
    },
    async set(key, token) {
      const data = read();
      data.tokens[key] = safeStorage.encryptString(token).toString('base64');
      write(data);
    },
    async delete(key) {
      const data = read();
      if (!(key in data.tokens)) return false;
      delete data.tokens[key];
      write(data);
      return true;
    },
  };
}
