/**
 * The desktop secret-store chain: keytar first; when it cannot load or reach a keychain, Electron safeStorage
 * with the ciphertext in userData under "label@baseUrl"; with only safeStorage's basic_text backend, the
 * session only. Never the token in plain text on disk.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountKey } from '../../../main/core/accounts/accountKey.ts';
import { keytarSecretStore } from '../../../main/core/accounts/keytarSecretStore.ts';
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import { desktopSecretStore } from '../../../main/electron/desktopSecretStore.ts';
import { TOKENS_FILE } from '../../../main/electron/safeStorageSecretStore.ts';
import { createFakeElectron } from '../../support/fakeElectron.ts';

const TOKEN = 'awt_live_5ecret_T0ken_value';
const KEY = accountKey({ label: 'Acme', baseUrl: 'https://api.example.test/api/v1' });
const noKeytar = () =>
  keytarSecretStore({ load: () => Promise.reject(new Error("Cannot find module 'keytar'")) });

describe('desktop secret store', () => {
  let dir: string;
  let lines: string[];
  let e: ReturnType<typeof createFakeElectron>;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-secrets-'));
    lines = [];
    e = createFakeElectron({ userData: dir });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const make = (keychain = noKeytar(), platform: NodeJS.Platform = 'linux') =>
    desktopSecretStore({
      safeStorage: e.module.safeStorage,
      userDataDir: dir,
      platform,
      say: (l) => lines.push(l),
      keychain,
    });

  const everythingOnDisk = () =>
    readdirSync(dir, { recursive: true })
      .map((f) => join(dir, String(f)))
      .filter((f) => statSync(f).isFile())
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');

  it('uses the OS keychain when keytar answers, and writes nothing in userData', async () => {
    const keychain = memorySecretStore();
    const store = make(keychain);
    await store.set(KEY, TOKEN);
    expect(await keychain.get(KEY)).toBe(TOKEN);
    expect(readdirSync(dir)).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('falls back to safeStorage: ciphertext in userData under label@baseUrl, readable by the user only', async () => {
    const store = make();
    await store.set(KEY, TOKEN);
    const file = join(dir, TOKENS_FILE);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { tokens: Record<string, string> };
    expect(Object.keys(saved.tokens)).toEqual(['Acme@https://api.example.test/api/v1']);
    expect(everythingOnDisk()).not.toContain(TOKEN);
    expect(statSync(file).mode & 0o077).toBe(0);
    // A later run (a new store over the same folder) reads it back.
    expect(await make().get(KEY)).toBe(TOKEN);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      "Authwatch: the OS keychain cannot be used (keytar failed to load: Cannot find module 'keytar'); tokens are kept in an encrypted file (Electron safeStorage).",
    );
    expect(await store.delete(KEY)).toBe(true);
    expect(await make().get(KEY)).toBeNull();
  });

  it('with only the basic_text backend, says so and keeps the token for the session only', async () => {
    e.module.safeStorage.backend = 'basic_text';
    const store = make();
    await store.set(KEY, TOKEN);
    expect(await store.get(KEY)).toBe(TOKEN);
    expect(existsSync(join(dir, TOKENS_FILE))).toBe(false);
    expect(everythingOnDisk()).not.toContain(TOKEN);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/basic_text backend .* not encryption/);
    expect(lines[0]).toMatch(/memory for this session only/);
    expect(lines[0]).not.toContain(TOKEN);
    // Gone after a restart: nothing was saved.
    expect(await make().get(KEY)).toBeNull();
  });

  it('when safeStorage cannot encrypt at all, keeps the token for the session only', async () => {
    e.module.safeStorage.available = false;
    const store = make(noKeytar(), 'darwin');
    await store.set(KEY, TOKEN);
    expect(existsSync(join(dir, TOKENS_FILE))).toBe(false);
    expect(lines[0]).toMatch(/safeStorage cannot encrypt on this machine/);
  });
});
