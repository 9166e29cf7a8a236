import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keytarSecretStore } from '../../../../main/core/accounts/keytarSecretStore.ts';
import { SecretStoreError } from '../../../../main/core/accounts/secretStore.ts';

const step = fileURLToPath(new URL('./fixtures/keychainStep.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * keytar is an optional dependency (npm ci succeeds without libsecret and skips it): without it there is no
 * keychain to test, and the fallback tests cover that case. Only then is the real-keychain suite skipped.
 */
function keytarMissing(): string | null {
  try {
    createRequire(import.meta.url)('keytar');
    return null;
  } catch (error) {
    return (error as Error).message.split('\n')[0] ?? 'keytar cannot load';
  }
}
const missing = keytarMissing();
if (missing)
  console.warn(`Skipping the real-keychain tests: keytar is not installed or cannot load (${missing}).`);

/** Fails loudly when the keychain tools are missing: .ci/run installs them, so a skip would hide a bug. */
function requireTool(name: string, pkg: string): void {
  const found = spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
  if (!found) {
    throw new Error(`${name} is not installed; the real-keychain test needs it (apt-get install ${pkg}).`);
  }
}

interface StepResult {
  ok: boolean;
  result?: unknown;
  name?: string;
  code?: string;
  message?: string;
}

describe.skipIf(missing !== null)(
  'keytarSecretStore with a real keychain (gnome-keyring on a private D-Bus session)',
  () => {
    let home: string;

    beforeAll(() => {
      requireTool('dbus-run-session', 'dbus');
      requireTool('gnome-keyring-daemon', 'gnome-keyring');
      // A private HOME so the keyring files never touch the user's own keychain.
      home = mkdtempSync(join(tmpdir(), 'authwatch-keychain-'));
    });
    afterAll(() => rmSync(home, { recursive: true, force: true }));

    /** Runs the steps in ONE D-Bus session and keyring daemon, each step in its own node process. */
    function inKeychainSession(steps: string[][]): StepResult[] {
      const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const commands = steps.map((args) => `node --import tsx ${quote(step)} ${args.map(quote).join(' ')}`);
      const script =
        'printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 97\n' +
        commands.join('\n');
      const out = execFileSync('dbus-run-session', ['--', 'sh', '-c', script], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: join(home, 'data'), LANG: 'C.UTF-8' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      return out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as StepResult);
    }

    it('stores, reads back from another process, keeps accounts apart and deletes tokens', () => {
      const results = inKeychainSession([
        ['set', 'acme@https://api.example.test/api/v1', 'tok_alpha_123'],
        ['set', 'globex@https://api.example.test/api/v1', 'tok_beta_456'],
        ['get', 'acme@https://api.example.test/api/v1'],
        ['get', 'globex@https://api.example.test/api/v1'],
        ['delete', 'acme@https://api.example.test/api/v1'],
        ['get', 'acme@https://api.example.test/api/v1'],
        ['delete', 'acme@https://api.example.test/api/v1'],
        ['get', 'globex@https://api.example.test/api/v1'],
      ]);
      expect(results).toEqual([
        { ok: true, result: null },
        { ok: true, result: null },
        { ok: true, result: 'tok_alpha_123' },
        { ok: true, result: 'tok_beta_456' },
        { ok: true, result: true },
        { ok: true, result: null },
        { ok: true, result: false },
        { ok: true, result: 'tok_beta_456' },
      ]);
    }, 90_000);

    it('reports a clear "unavailable" error when no keychain can be reached', () => {
      // No D-Bus session at all: libsecret cannot reach a secret service.
      const out = execFileSync('node', ['--import', 'tsx', step, 'get', 'acme'], {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home, 'no-such-bus')}`,
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      const result = JSON.parse(out.trim()) as StepResult;
      expect(result.ok).toBe(false);
      expect(result.name).toBe('SecretStoreError');
      expect(result.code).toBe('unavailable');
      expect(result.message).toMatch(/OS keychain could not read a token/);
      expect(result.message).toMatch(/AUTHWATCH_TOKEN/);
    }, 90_000);
  },
);

describe('keytarSecretStore when keytar cannot load', () => {
  it('says the keychain module failed to load, without leaking the token, and retries loading later', async () => {
    let attempts = 0;
    const store = keytarSecretStore({
      load: async () => {
        attempts += 1;
        throw new Error('libsecret-1.so.0: cannot open shared object file');
      },
    });
    const failure = await store.set('acme', 'tok_do_not_leak').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SecretStoreError);
    expect((failure as SecretStoreError).code).toBe('unavailable');
    expect((failure as Error).message).toMatch(/keytar module failed to load \(libsecret-1\.so\.0/);
    expect(String(failure)).not.toContain('tok_do_not_leak');
    await store.get('acme').catch(() => undefined);
    expect(attempts).toBe(2);
  });
});
