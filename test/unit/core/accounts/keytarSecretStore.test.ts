import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { keytarSecretStore } from '../../../../main/core/accounts/keytarSecretStore.ts';
import { SecretStoreError } from '../../../../main/core/accounts/secretStore.ts';

const step = fileURLToPath(new URL('./fixtures/keychainStep.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * keytar is an optional dependency (npm ci succeeds without libsecret and skips it), and a real keychain
 * needs D-Bus and gnome-keyring. Where any of them is missing or no keychain answers, the real-keychain
 * tests report themselves skipped with the reason (the fallback tests cover that case). CI has a keychain
 * and sets AUTHWATCH_REQUIRE_KEYCHAIN=1 (.ci/run): there the same reason fails the test instead, so a
 * skip cannot hide a broken keychain.
 */
const REQUIRE_KEYCHAIN = process.env.AUTHWATCH_REQUIRE_KEYCHAIN === '1';

function keytarMissing(): string | null {
  try {
    createRequire(import.meta.url)('keytar');
    return null;
  } catch (error) {
    return `keytar is not installed or cannot load (${(error as Error).message.split('\n')[0] ?? 'unknown error'})`;
  }
}

function toolMissing(name: string, pkg: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
  return found ? null : `${name} is not installed (apt-get install ${pkg})`;
}

/** Why no keychain can answer here, or null when keytar, D-Bus and gnome-keyring are all present. */
const unavailable =
  keytarMissing() ??
  toolMissing('dbus-run-session', 'dbus') ??
  toolMissing('gnome-keyring-daemon', 'gnome-keyring');

/** Skips the running test with the reason, or fails it where CI requires a keychain. */
function noKeychain(ctx: TestContext, reason: string): never {
  if (REQUIRE_KEYCHAIN) throw new Error(`AUTHWATCH_REQUIRE_KEYCHAIN=1, but no keychain answers: ${reason}`);
  return ctx.skip(`no keychain answers: ${reason}`);
}

/** The daemon could not start or unlock the keyring (the session script's exit 97). */
class KeyringDaemonFailed extends Error {}

interface StepResult {
  ok: boolean;
  result?: unknown;
  name?: string;
  code?: string;
  message?: string;
}

describe('keytarSecretStore with a real keychain (gnome-keyring on a private D-Bus session)', () => {
  let home: string;

  beforeAll(() => {
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
    const run = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: join(home, 'data'), LANG: 'C.UTF-8' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (run.status === 97) throw new KeyringDaemonFailed('gnome-keyring-daemon did not start or unlock');
    if (run.status !== 0)
      throw new Error(`keychain session failed (exit ${run.status}): ${run.stderr || run.error?.message}`);
    return run.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as StepResult);
  }

  it('stores, reads back from another process, keeps accounts apart and deletes tokens', (ctx) => {
    if (unavailable) noKeychain(ctx, unavailable);
    let results: StepResult[];
    try {
      results = inKeychainSession([
        ['set', 'acme@https://api.example.test/api/v1', 'tok_alpha_123'],
        ['set', 'globex@https://api.example.test/api/v1', 'tok_beta_456'],
        ['get', 'acme@https://api.example.test/api/v1'],
        ['get', 'globex@https://api.example.test/api/v1'],
        ['delete', 'acme@https://api.example.test/api/v1'],
        ['get', 'acme@https://api.example.test/api/v1'],
        ['delete', 'acme@https://api.example.test/api/v1'],
        ['get', 'globex@https://api.example.test/api/v1'],
      ]);
    } catch (error) {
      if (error instanceof KeyringDaemonFailed) noKeychain(ctx, error.message);
      throw error;
    }
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

  it('reports a clear "unavailable" error when no keychain can be reached', (ctx) => {
    // Needs keytar itself (libsecret answers "unavailable"); without it the fallback tests below cover it.
    if (unavailable) noKeychain(ctx, unavailable);
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
});

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
