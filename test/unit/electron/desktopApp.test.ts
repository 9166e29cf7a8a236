/**
 * The Electron main process as a whole, against a fake `electron` module: main.ts is imported as Electron
 * would run it, and each test plays the OS or the page and checks what the user would get.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_ID } from '../../../main/electron/appIdentity.ts';
import { CONTENT_SECURITY_POLICY } from '../../../main/electron/contentSecurityPolicy.ts';
import { createFakeElectron } from '../../support/fakeElectron.ts';

const fake = vi.hoisted(() => ({ current: null as ReturnType<typeof createFakeElectron> | null }));
vi.mock('electron', () => fake.current!.module);

describe('Electron main (fake electron)', () => {
  let dir: string;
  let e: ReturnType<typeof createFakeElectron>;
  const win = () => e.windows[0]!;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-electron-'));
    e = createFakeElectron({ userData: join(dir, 'userData') });
    fake.current = e;
    vi.stubEnv('AUTHWATCH_DB', join(dir, 'mirror.db'));
    await import('../../../main/electron/main.ts');
    await vi.waitFor(() => expect(win().loaded).toBe('app://authwatch/index.html'));
  });
  afterAll(async () => {
    e.module.app.quit();
    await vi.waitFor(() => expect(e.calls.filter((c) => c.method === 'app.quit').length).toBe(2));
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers app:// as a standard, secure scheme before the app is ready, and serves the renderer from it', () => {
    expect(e.calls[0]).toEqual({
      method: 'protocol.registerSchemesAsPrivileged',
      args: [
        [
          expect.objectContaining({
            scheme: 'app',
            privileges: expect.objectContaining({ standard: true, secure: true, bypassCSP: false }),
          }),
        ],
      ],
    });
    expect(e.protocolHandlers.has('app')).toBe(true);
    expect(win().loaded).toBe('app://authwatch/index.html');
  });

  it('is one instance named by the builder appId; a second launch shows the window', () => {
    expect(e.calls).toContainEqual({ method: 'app.setAppUserModelId', args: [APP_ID] });
    win().hide();
    e.module.app.emit('second-instance');
    expect(win().visible).toBe(true);
    expect(win().focused).toBe(true);
  });

  it('opens one window with every webPreferences flag of the security checklist', () => {
    expect(e.windows).toHaveLength(1);
    const prefs = win().options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
    expect(String(prefs.preload)).toMatch(/preload\.cjs$/);
    // Linux draws the title bar's and task switcher's icon from the window: the packaged PNG beside main.js.
    expect(String(win().options.icon)).toMatch(/[/\\]icon\.png$/);
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  });

  it('puts the strict CSP on every response, replacing one a response brings', () => {
    let headers: Record<string, string[]> = {};
    e.defaultSession.headersReceived!(
      { responseHeaders: { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] } },
      (r: { responseHeaders: Record<string, string[]> }) => (headers = r.responseHeaders),
    );
    expect(headers).toEqual({ 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ])
      expect(CONTENT_SECURITY_POLICY.split('; ')).toContain(directive);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)/);
  });

  it('blocks navigation; an https link goes to the browser, other schemes nowhere', () => {
    expect(win().webContents.emitPreventable('will-navigate', 'https://evil.example/phish')).toBe(true);
    expect(win().webContents.emitPreventable('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(win().webContents.emitPreventable('will-navigate', 'app://authwatch/other.html')).toBe(true);
    expect(e.opened).toEqual(['https://evil.example/phish']);
    expect(win().webContents.emitPreventable('will-attach-webview')).toBe(true);
  });

  it('denies every window.open; only an https URL is handed to shell.openExternal', () => {
    e.opened.length = 0;
    const open = win().webContents.openHandler!;
    expect(open({ url: 'https://docs.example/dmarc' })).toEqual({ action: 'deny' });
    expect(open({ url: 'http://docs.example/dmarc' })).toEqual({ action: 'deny' });
    expect(open({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(open({ url: 'https://user:pw@docs.example/' })).toEqual({ action: 'deny' });
    expect(e.opened).toEqual(['https://docs.example/dmarc']);
  });

  it('denies every permission request and check', () => {
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'hid',
      'openExternal',
    ]) {
      let granted: boolean | undefined;
      e.defaultSession.permissionRequest!(win().webContents, permission, (g: boolean) => (granted = g), {});
      expect(granted, permission).toBe(false);
      expect(e.defaultSession.permissionCheck!(win().webContents, permission, 'app://authwatch', {})).toBe(
        false,
      );
    }
    expect(e.defaultSession.devicePermission!()).toBe(false);
  });

  it('answers the bridge for our window only: other frames, pages and senders are refused', async () => {
    expect(await e.callBridge('getSettings', undefined)).toMatchObject({
      ok: true,
      result: { app: { startAtLogin: false } },
    });
    const refused = { ok: false, error: { code: 'forbidden' } };
    expect(await e.callBridge('getSettings', undefined, { parent: {} })).toMatchObject(refused); // an iframe
    expect(await e.callBridge('getSettings', undefined, { url: 'https://evil.example/' })).toMatchObject(
      refused,
    );
    expect(await e.callBridge('getSettings', undefined, { url: 'file:///tmp/x.html' })).toMatchObject(
      refused,
    );
    expect(await e.callBridge('getSettings', undefined, { url: 'app://authwatch.evil/' })).toMatchObject(
      refused,
    );
    expect(await e.callBridge('getSettings', undefined, { sender: {} })).toMatchObject(refused); // another webContents
    expect(await e.callBridge('getSettings', undefined, { noFrame: true })).toMatchObject(refused);
  });

  it('rejects unknown methods and arguments the schemas refuse', async () => {
    expect(await e.callBridge('__proto__', undefined)).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
    expect(await e.callBridge('eval', ['1'])).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    expect(await e.callBridge('domainDetail', { accountId: 'one', domainId: 2 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments' },
    });
    const extra = await e.callBridge('pauseNotifications', { until: null, evil: true });
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    const token = await e.callBridge('addAccount', { label: 'x', baseUrl: 'https://x', token: 'tk_9zq' });
    expect(token).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    expect(JSON.stringify(token)).not.toContain('tk_9zq');
  });

  it('answers malformed and oversized IPC calls with an error, never an exception', async () => {
    // What structured cloning lets a page send: objects of any shape, Maps, cycles, very long strings.
    const noString = { toString: 1, valueOf: 1 };
    expect(await e.callBridge(noString, undefined)).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
    const cyclic: Record<string, unknown> = { until: null };
    cyclic.self = cyclic;
    expect(await e.callBridge('pauseNotifications', cyclic)).toMatchObject({
      ok: false,
      error: { code: 'not_plain' },
    });
    expect(await e.callBridge('listAlerts', new Map([['open', true]]))).toMatchObject({
      ok: false,
      error: { code: 'not_plain' },
    });
    expect(await e.callBridge('listAlerts', { open: true, n: 10n })).toMatchObject({
      ok: false,
      error: { code: 'not_plain' },
    });
    const huge = await e.callBridge('edit', {
      operation: 'createBimi',
      accountId: 1,
      body: { svg_content: 'é'.repeat(4_500_000) },
    });
    expect(huge).toMatchObject({ ok: false, error: { code: 'too_large' } });
    expect((huge as { error: { message: string } }).error.message).toMatch(/accepts up to 8\.0 MB/);
    // The largest write the contract allows still reaches the facade (no account 1 here).
    const largest = await e.callBridge('edit', {
      operation: 'createBimi',
      accountId: 1,
      body: { svg_content: '\u0001'.repeat(524_288), vmc_pem: '\u0001'.repeat(65_536) },
    });
    expect(largest).toMatchObject({ ok: false });
    expect((largest as { error: { code: string } }).error.code).not.toMatch(/too_large|not_plain/);
    expect(await e.callBridge('getSettings', undefined)).toMatchObject({ ok: true });
  });

  it('forwards facade events to the window as bridge events', async () => {
    win().webContents.sent.length = 0;
    await e.callBridge('updateSettings', { alerts: { scoreStep: 2 } });
    expect(win().webContents.sent).toContainEqual({
      channel: 'authwatch:event',
      payload: { event: 'changed', payload: { accountId: null, domainId: null, what: 'settings' } },
    });
  });

  it('start at login goes through the facade to a hidden login item', async () => {
    expect(await e.callBridge('updateAppPreferences', { startAtLogin: true })).toMatchObject({ ok: true });
    expect(e.calls).toContainEqual({
      method: 'app.setLoginItemSettings',
      args: [{ openAtLogin: true, args: ['--hidden'] }],
    });
  });

  it('shows the tray with the status icon, counts, and Open / Sync now / Pause / Quit', async () => {
    const tray = e.trays[0]!;
    await vi.waitFor(() => expect(tray.menu).not.toBeNull());
    expect(tray.image).toMatch(/tray[\\/]ok\.png$/);
    expect(tray.tooltip).toBe('Authwatch — no domains yet');
    expect(tray.menu!.template.map((i) => i.label ?? '—')).toEqual([
      'Open Authwatch',
      'Sync now',
      'Pause notifications for 1 hour',
      '—',
      'Quit Authwatch',
    ]);
    win().hide();
    tray.click('Open Authwatch');
    expect(win().visible).toBe(true);

    const before = Date.now();
    tray.click('Pause notifications for 1 hour');
    await vi.waitFor(() => expect(tray.menu!.template[2]!.label).toBe('Resume notifications'));
    const settings = (await e.callBridge('getSettings', undefined)) as {
      result: { notificationsPausedUntil: string };
    };
    const until = Date.parse(settings.result.notificationsPausedUntil);
    expect(until - before).toBeGreaterThanOrEqual(60 * 60 * 1000 - 1000);
    expect(until - before).toBeLessThanOrEqual(60 * 60 * 1000 + 5000);
    expect(tray.tooltip).toMatch(/notifications paused until/);
    tray.click('Resume notifications');
    await vi.waitFor(() => expect(tray.menu!.template[2]!.label).toBe('Pause notifications for 1 hour'));

    tray.click('Sync now'); // no account yet: resolves with nothing to do, and must not throw
  });

  it('closing the window keeps the app in the tray', () => {
    win().show();
    expect(win().close()).toBe(false);
    expect(win().visible).toBe(false);
  });
});
