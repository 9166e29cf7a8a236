import { isAppUrl } from './appIdentity.ts';
import { safeExternalUrl } from './externalLinks.ts';

/**
 * The main window's webPreferences, per Electron's security checklist: the renderer is a web page with no
 * Node, in a sandbox, in its own JavaScript world, talking to main only through the preload's bridge.
 */
export function secureWebPreferences(preload: string) {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  } as const;
}

/** The parts of webContents we harden. */
export interface WebContentsLike {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { preventDefault(): void }, url: string) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * No navigation away from the renderer (the hash router never navigates), no webviews, no new windows:
 * an https link the user clicks opens in their browser, anything else is dropped.
 */
export function hardenWebContents(
  contents: WebContentsLike,
  openExternal: (url: string) => void,
  onBlocked: (what: string, url: string) => void = () => undefined,
): void {
  const external = (url: string) => {
    const safe = safeExternalUrl(url);
    if (safe) openExternal(safe);
    else onBlocked('link', url);
  };
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    if (!isAppUrl(url)) external(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) {
      event.preventDefault();
      onBlocked('redirect', url);
    }
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    external(url);
    return { action: 'deny' };
  });
}

/** The parts of a session we lock down. */
export interface SessionLike {
  setPermissionRequestHandler(
    handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler?(handler: () => boolean): void;
}

/** Every permission (camera, notifications from the page, geolocation, HID, …) is denied: the app needs none. */
export function denyAllPermissions(
  session: SessionLike,
  onDenied: (permission: string) => void = () => undefined,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    onDenied(permission);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler?.(() => false);
}
