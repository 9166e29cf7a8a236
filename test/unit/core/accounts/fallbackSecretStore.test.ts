import { describe, expect, it } from 'vitest';
import { fallbackSecretStore } from '../../../../main/core/accounts/fallbackSecretStore.ts';
import { headlessSecretStore } from '../../../../main/core/accounts/headlessSecretStore.ts';
import { keytarSecretStore } from '../../../../main/core/accounts/keytarSecretStore.ts';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { SecretStoreError, type SecretStore } from '../../../../main/core/accounts/secretStore.ts';

const missingKeytar = () =>
  keytarSecretStore({
    load: () => Promise.reject(new Error("Cannot find package 'keytar'\n    at resolve (node:internal)")),
  });

describe('fallbackSecretStore', () => {
  it('uses the keychain while it answers, without a word', async () => {
    const lines: string[] = [];
    const keychain = memorySecretStore();
    const store = fallbackSecretStore(
      keychain,
      () => memorySecretStore(),
      (l) => lines.push(l),
    );
    await store.set('a@https://x/api/v1', 'tok_secret_1');
    expect(await keychain.get('a@https://x/api/v1')).toBe('tok_secret_1');
    expect(lines).toEqual([]);
  });

  it('falls back when keytar cannot load, saying so once in one line without the token', async () => {
    const lines: string[] = [];
    const store = headlessSecretStore({}, (l) => lines.push(l), missingKeytar());
    await store.set('a@https://x/api/v1', 'tok_secret_1');
    expect(await store.get('a@https://x/api/v1')).toBe('tok_secret_1');
    expect(await store.delete('a@https://x/api/v1')).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    expect(lines[0]).toMatch(
      /the OS keychain cannot be used \(keytar failed to load: Cannot find package 'keytar'\)/,
    );
    expect(lines[0]).toMatch(/memory for this session only/);
    expect(lines[0]).not.toContain('tok_secret_1');
    expect(store.kind).toMatch(/session only/);
  });

  it('falls back when keytar loads but no keychain answers', async () => {
    const lines: string[] = [];
    const noDbus = keytarSecretStore({
      load: async () => ({
        getPassword: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
        setPassword: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
        deletePassword: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
      }),
    });
    const store = fallbackSecretStore(
      noDbus,
      () => memorySecretStore(),
      (l) => lines.push(l),
    );
    expect(await store.get('k')).toBeNull();
    expect(lines).toEqual([
      'Authwatch: the OS keychain cannot be used (no keychain answered: Cannot autolaunch D-Bus without X11 $DISPLAY); tokens are kept in memory.',
    ]);
  });

  it('does not hide other failures behind a fallback', async () => {
    const broken: SecretStore = {
      kind: 'broken',
      get: () => Promise.reject(new SecretStoreError('failed', 'disk on fire')),
      set: () => Promise.resolve(),
      delete: () => Promise.resolve(false),
    };
    const store = fallbackSecretStore(
      broken,
      () => memorySecretStore(),
      () => undefined,
    );
    await expect(store.get('k')).rejects.toThrow('disk on fire');
    expect(store.kind).toBe('broken');
  });

  it('prefers AUTHWATCH_TOKEN and never touches the keychain then', async () => {
    const lines: string[] = [];
    const store = headlessSecretStore({ AUTHWATCH_TOKEN: 'tok_env' }, (l) => lines.push(l), missingKeytar());
    expect(await store.get('any')).toBe('tok_env');
    expect(lines).toEqual([]);
  });
});
