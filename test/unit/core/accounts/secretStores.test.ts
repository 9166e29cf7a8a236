import { describe, expect, it } from 'vitest';
import { envSecretStore, TOKEN_ENV_VAR } from '../../../../main/core/accounts/envSecretStore.ts';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { SecretStoreError } from '../../../../main/core/accounts/secretStore.ts';

describe('envSecretStore', () => {
  it('answers every account with AUTHWATCH_TOKEN, trimmed', async () => {
    const store = envSecretStore({ [TOKEN_ENV_VAR]: '  tok_env_1 \n' });
    expect(await store.get('any')).toBe('tok_env_1');
    expect(await store.get('other')).toBe('tok_env_1');
  });

  it('answers null when the variable is unset or blank', async () => {
    expect(await envSecretStore({}).get('any')).toBeNull();
    expect(await envSecretStore({ [TOKEN_ENV_VAR]: '   ' }).get('any')).toBeNull();
  });

  it('refuses writes and deletes as read-only', async () => {
    const store = envSecretStore({ [TOKEN_ENV_VAR]: 'tok' });
    await expect(store.set('a', 'tok_new')).rejects.toMatchObject({ code: 'read_only' });
    await expect(store.delete('a')).rejects.toBeInstanceOf(SecretStoreError);
    expect(await store.get('a')).toBe('tok');
  });
});

describe('memorySecretStore', () => {
  it('keeps tokens per account and deletes them', async () => {
    const store = memorySecretStore();
    await store.set('a', 'tok_a');
    await store.set('b', 'tok_b');
    expect(await store.get('a')).toBe('tok_a');
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    expect(await store.get('a')).toBeNull();
    expect(await store.get('b')).toBe('tok_b');
  });
});
