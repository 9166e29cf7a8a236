/**
 * The desktop app's requests go through Chromium's network stack (Electron's net.fetch: the system proxy,
 * PAC/WPAD and the OS trust store), unless Settings → Network says otherwise. Against the fake `electron`
 * module, whose net.fetch records each URL, and the real reference service.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFakeElectron } from '../../support/fakeElectron.ts';
import { startService, type ServiceHarness } from '../../support/serviceHarness.ts';

const fake = vi.hoisted(() => ({ current: null as ReturnType<typeof createFakeElectron> | null }));
vi.mock('electron', () => fake.current!.module);

describe('the desktop app on the network (fake electron)', () => {
  let dir: string;
  let e: ReturnType<typeof createFakeElectron>;
  let svc: ServiceHarness;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-electron-net-'));
    svc = await startService();
    e = createFakeElectron({ userData: join(dir, 'userData') });
    fake.current = e;
    vi.stubEnv('AUTHWATCH_DB', join(dir, 'mirror.db'));
    // An environment proxy that nothing answers: the desktop app follows the system, not the variables.
    vi.stubEnv('HTTPS_PROXY', 'http://127.0.0.1:9');
    vi.stubEnv('HTTP_PROXY', 'http://127.0.0.1:9');
    await import('../../../main/electron/main.ts');
    await vi.waitFor(() => expect(e.windows[0]?.loaded).toBe('app://authwatch/index.html'));
  });
  afterAll(async () => {
    e.module.app.quit();
    // Quitting waits for the syncs the added accounts started: seconds on a busy machine.
    await vi.waitFor(() => expect(e.calls.filter((c) => c.method === 'app.quit').length).toBe(2), {
      timeout: 20_000,
    });
    vi.unstubAllEnvs();
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds an account through the system network stack (net.fetch), and says which way out it takes', async () => {
    const { token } = await svc.createToken(['account:read', 'me:read', 'domains:read']);
    const added = await e.callBridge('addAccount', { label: 'Acme', baseUrl: svc.baseUrl, token });
    expect(added.ok, JSON.stringify(added.error)).toBe(true);
    expect(e.netRequests).toContain(`${svc.baseUrl}/auth/me`);

    const status = await e.callBridge('networkStatus', undefined);
    expect(status.result).toMatchObject({
      settings: { proxy: 'system' },
      system: 'operating system',
      environment: { httpsProxy: 'http://127.0.0.1:9' },
    });
  });

  it('goes around the system stack once Settings → Network says None, and back with System', async () => {
    const { token } = await svc.createToken(['account:read', 'me:read', 'domains:read']);
    const none = await e.callBridge('updateNetwork', { proxy: 'none' });
    expect(none.ok).toBe(true);
    const before = e.netRequests.length;
    const direct = await e.callBridge('addAccount', { label: 'Direct', baseUrl: svc.altBaseUrl, token });
    expect(direct.ok, JSON.stringify(direct.error)).toBe(true);
    expect(e.netRequests.length).toBe(before);

    await e.callBridge('updateNetwork', { proxy: 'manual', proxyUrl: 'http://127.0.0.1:9' });
    const { token: third } = await svc.createToken(['account:read', 'me:read', 'domains:read']);
    const refused = await e.callBridge('addAccount', {
      label: 'Proxied',
      baseUrl: `${svc.origin}/api`,
      token: third,
    });
    expect(refused.ok).toBe(false);
    expect(refused.error?.message).toContain('The proxy at 127.0.0.1:9 refused the connection');

    // The sync of an account added before says the same on the sync line (the account's connectivity).
    const accounts = (await e.callBridge('listAccounts', undefined)).result as {
      id: number;
      label: string;
    }[];
    const acme = accounts.find((a) => a.label === 'Acme')!;
    await e.callBridge('syncNow', { accountId: acme.id });
    const connectivity = (await e.callBridge('connectivity', undefined)).result as {
      accountId: number;
      online: boolean;
      message: string | null;
    }[];
    expect(connectivity.find((c) => c.accountId === acme.id)).toMatchObject({
      online: false,
      message: 'The proxy at 127.0.0.1:9 refused the connection.',
    });

    await e.callBridge('updateNetwork', { proxy: 'system' });
    expect(e.netRequests.length).toBe(before);
  });

  it('refuses settings it could not use, naming the field, and keeps the ones it had', async () => {
    const bad = await e.callBridge('updateNetwork', { proxy: 'manual', proxyUrl: 'socks5://p:1080' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    expect(bad.error?.message).toContain('proxyUrl');
    const withLogin = await e.callBridge('updateNetwork', {
      proxy: 'manual',
      proxyUrl: 'http://u:secret@p:3128',
    });
    expect(withLogin.ok).toBe(false);
    expect(JSON.stringify(withLogin)).not.toContain('secret');
    const noFile = await e.callBridge('updateNetwork', { caFile: join(dir, 'missing.pem') });
    expect(noFile.error?.message).toContain('could not be read: there is no such file');
    const status = await e.callBridge('networkStatus', undefined);
    expect(status.result).toMatchObject({ settings: { proxy: 'system', caFile: '' }, problem: null });
  });
});
