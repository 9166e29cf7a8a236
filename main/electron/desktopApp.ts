import {
  type Authwatch,
  defaultDbPath,
  dnsServersFromEnv,
  openRuntime,
  type TrayStatus,
} from '../core/index.ts';
import { EVENT_CHANNEL } from '../../shared/bridge/methodNames.ts';
import { checkedEvent } from '../../shared/bridge/serve.ts';
import { APP_ENTRY_URL, APP_SCHEME, PRODUCT_NAME } from './appIdentity.ts';
import { enforceContentSecurityPolicy, type HeaderHook } from './contentSecurityPolicy.ts';
import { desktopSecretStore } from './desktopSecretStore.ts';
import { openHttpsLink } from './externalLinks.ts';
import { eventSender, serveBridgeOverIpc, type IpcMainLike } from './ipcBridge.ts';
import { claimSingleInstance, HIDDEN_ARG, startAtLoginHook, stayInTray, type AppLike } from './lifecycle.ts';
import { desktopNotifier, type NotificationClass } from './notifications.ts';
import { createRendererHandler } from './rendererProtocol.ts';
import type { SafeStorageLike } from './safeStorageSecretStore.ts';
import { createTrayController, type MenuApi, type TrayLike } from './tray.ts';
import {
  denyAllPermissions,
  hardenWebContents,
  secureWebPreferences,
  type SessionLike,
  type WebContentsLike,
} from './windowSecurity.ts';

/** The webContents of our window, as the shell uses it. */
export type WindowContents = WebContentsLike & {
  isDestroyed(): boolean;
  send(channel: string, payload: unknown): void;
};

/** The one window. */
export interface WindowLike {
  webContents: WindowContents;
  loadURL(url: string): Promise<void>;
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  once(event: 'ready-to-show', listener: () => void): unknown;
  show(): void;
  hide(): void;
  focus(): void;
  isMinimized(): boolean;
  restore(): void;
}

/** What the desktop shell uses of the `electron` module (main.ts passes the real one). */
export interface DesktopElectron {
  app: AppLike & {
    whenReady(): Promise<unknown>;
    getPath(name: 'userData'): string;
    isPackaged: boolean;
    on(event: 'will-quit', listener: (event: { preventDefault(): void }) => void): unknown;
    on(event: 'web-contents-created', listener: (event: unknown, contents: WebContentsLike) => void): unknown;
  };
  BrowserWindow: new (options: Record<string, unknown>) => WindowLike;
  Tray: new (image: string) => TrayLike;
  Menu: MenuApi;
  Notification: NotificationClass;
  ipcMain: IpcMainLike;
  protocol: { handle(scheme: string, handler: (request: Request) => Promise<Response>): void };
  session: { defaultSession: SessionLike & { webRequest: HeaderHook } };
  shell: { openExternal(url: string): Promise<void> };
  safeStorage: SafeStorageLike;
  /** Chromium's network stack: the system proxy (PAC/WPAD included) and the OS trust store apply. */
  net: { fetch(input: string | Request, init?: RequestInit): Promise<Response> };
}

/** Where the built app's parts are (out/main, out/renderer), and the mirror. */
export interface DesktopPaths {
  preload: string;
  renderer: string;
  trayIcons: Record<TrayStatus, string>;
  /**
   * The window's icon (a PNG). Linux takes the title bar's and task switcher's icon from the window, not from
   * the package (Windows and macOS use the packaged icon; there it changes nothing).
   */
  windowIcon?: string;
  /** Default: $AUTHWATCH_DB or ~/.authwatch/mirror.db, shared with the `authwatch` command. */
  db?: string;
}

/** The running shell (tests inspect it). */
export interface DesktopApp {
  facade: Authwatch;
  window: WindowLike;
  /** Whether this process syncs the mirror (holds its writer lock). */
  readonly writer: boolean;
  showWindow(): void;
  /** Shows the window on a route of the renderer ("#/domain/1/42"). */
  navigate(route: string): void;
}

/**
 * Starts the desktop app: one instance, the renderer on app://authwatch with a strict CSP and no
 * permissions, one hardened window, the bridge over IPC, the tray, native notifications, and the engine —
 * syncing only when this process holds the mirror's writer lock (else it shows the data another process
 * keeps current). Resolves null in a second instance, which hands over to the first and quits.
 */
export async function startDesktopApp(
  electron: DesktopElectron,
  paths: DesktopPaths,
  options: { env?: NodeJS.ProcessEnv; argv?: string[]; say?: (line: string) => void } = {},
): Promise<DesktopApp | null> {
  const { app } = electron;
  const say = options.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  let window: WindowLike | null = null;
  const showWindow = () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  if (!claimSingleInstance(app, showWindow)) return null;

  await app.whenReady();
  const session = electron.session.defaultSession;
  denyAllPermissions(session, (permission) => say(`Authwatch: denied the page's request for ${permission}.`));
  enforceContentSecurityPolicy(session.webRequest);
  electron.protocol.handle(APP_SCHEME, createRendererHandler(paths.renderer));
  const openExternal = (url: string) => void openHttpsLink(electron.shell, url);
  const blocked = (what: string, url: string) => say(`Authwatch: blocked a ${what} to ${url.slice(0, 200)}.`);
  // Any other webContents (none is expected) gets the same rules as the window.
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, openExternal, blocked));

  const sendEvent = eventSender(() => window?.webContents ?? null, EVENT_CHANNEL);
  const navigate = (route: string) => {
    showWindow();
    const event = checkedEvent('navigate', { route });
    if (event) sendEvent(event);
  };
  const notifier = desktopNotifier({ Notification: electron.Notification, open: navigate });
  // A standby while another process syncs the mirror: it shows that process's data, takes over when it
  // stops, and only then syncs and notifies (alerts stay pending meanwhile).
  const runtime = openRuntime({
    db: paths.db ?? defaultDbPath(options.env ?? process.env),
    role: 'standby',
    purpose: 'Authwatch desktop app',
    secrets: desktopSecretStore({
      safeStorage: electron.safeStorage,
      userDataDir: app.getPath('userData'),
      platform: process.platform,
      say,
    }),
    say,
    notifier,
    // Every request in Settings → Network's "system" mode goes the way the OS says, as in a browser.
    networkShell: {
      systemFetch: (input, init) => electron.net.fetch(input instanceof URL ? input.href : input, init),
    },
    shell: {
      setStartAtLogin: startAtLoginHook(app),
      openExternal: (url) => openHttpsLink(electron.shell, url),
    },
    logger: {
      info: () => undefined,
      warn: (message) => say(`Authwatch: ${message}`),
      error: (message) => say(`Authwatch: ${message}`),
    },
    // The DNS watch: the settings' resolvers (else the system's), or those the demo hands over.
    dnsWatch: { servers: dnsServersFromEnv(options.env ?? process.env) },
    // The live checks share the watch's resolvers (Settings → Live checks turns them off).
    liveChecks: {},
  });
  const facade = runtime.app;

  const win = new electron.BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: PRODUCT_NAME,
    ...(paths.windowIcon ? { icon: paths.windowIcon } : {}),
    webPreferences: secureWebPreferences(paths.preload),
  });
  window = win;
  hardenWebContents(win.webContents, openExternal, blocked);
  stayInTray(app, win);
  const startHidden = (options.argv ?? process.argv).includes(HIDDEN_ARG);
  win.once('ready-to-show', () => {
    if (!startHidden) win.show();
  });

  serveBridgeOverIpc({
    ipcMain: electron.ipcMain,
    methods: facade,
    webContents: () => window?.webContents ?? null,
    onRefused: (url) => say(`Authwatch: refused a bridge call from ${url ?? 'an unknown frame'}.`),
    onInternalError: (method, message) => say(`Authwatch: ${method}: ${message}`),
  });
  runtime.onBridgeEvent(sendEvent);

  const tray = createTrayController({
    tray: new electron.Tray(paths.trayIcons.ok),
    Menu: electron.Menu,
    icons: paths.trayIcons,
    facade,
    open: showWindow,
    syncNow: () => {
      if (!runtime.writer) {
        say(`Authwatch: ${runtime.syncedBy ?? 'another process'} syncs this mirror; Sync now is left to it.`);
        return;
      }
      facade.syncNow().catch((error: unknown) => say(`Authwatch: sync failed: ${(error as Error).message}`));
    },
    quit: () => app.quit(),
    now: Date.now,
    onError: (what, error) => say(`Authwatch: could not ${what}: ${(error as Error).message}`),
  });

  // The OS login item follows the stored preference (only for the installed app: a dev run would register
  // the bare Electron binary).
  if (app.isPackaged) await runtime.applyPreferences();

  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    void (async () => {
      tray.dispose();
      await runtime.close().catch(() => undefined);
      closed = true;
      app.quit();
    })();
  });

  await win.loadURL(APP_ENTRY_URL);
  runtime.start();
  return {
    facade,
    window: win,
    get writer() {
      return runtime.writer;
    },
    showWindow,
    navigate,
  };
}
