import { APP_ID } from './appIdentity.ts';

/** The parts of Electron's app we drive. */
export interface AppLike {
  requestSingleInstanceLock(): boolean;
  setAppUserModelId(id: string): void;
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void;
  on(
    event: 'second-instance' | 'activate' | 'window-all-closed' | 'before-quit',
    listener: () => void,
  ): unknown;
  quit(): void;
}

/** The argument a login-item launch carries: start in the tray, window hidden. */
export const HIDDEN_ARG = '--hidden';

/**
 * One app per user: a second launch hands over to the first (which shows its window) and quits. Also names
 * the app to Windows (notifications and the taskbar group by this id). Returns false in the second instance.
 */
export function claimSingleInstance(app: AppLike, showWindow: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.setAppUserModelId(APP_ID);
  app.on('second-instance', showWindow);
  // macOS: clicking the dock icon with no visible window.
  app.on('activate', showWindow);
  return true;
}

/** The facade's shell hook for "start at login": a login item that starts hidden in the tray. */
export function startAtLoginHook(app: AppLike): (enabled: boolean) => void {
  return (enabled) => app.setLoginItemSettings({ openAtLogin: enabled, args: enabled ? [HIDDEN_ARG] : [] });
}

/** The parts of the window that closing touches. */
export interface ClosableWindow {
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  hide(): void;
}

/**
 * Closing the window hides it: the app keeps watching from the tray. Only Quit (tray menu, Cmd-Q, the OS
 * logging out) ends it. Returns a function telling whether a quit is under way.
 */
export function stayInTray(app: AppLike, window: ClosableWindow): () => boolean {
  let quitting = false;
  app.on('before-quit', () => {
    quitting = true;
  });
  // With a listener registered, Electron no longer quits when the last window closes.
  app.on('window-all-closed', () => undefined);
  window.on('close', (event) => {
    if (quitting) return;
    event.preventDefault();
    window.hide();
  });
  return () => quitting;
}
