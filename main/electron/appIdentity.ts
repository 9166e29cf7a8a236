/**
 * Who the desktop app is to the OS. APP_ID is electron-builder's appId too (electron-builder.yml; a test holds
 * them equal): Windows groups notifications and taskbar entries by it, so the two must never drift apart.
 */
export const APP_ID = 'com.authwatch.desktop';
export const PRODUCT_NAME = 'Authwatch';

/** The renderer's own origin: a privileged custom scheme, never file:// (which would share one origin with every local file). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'authwatch';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** True when `url` is a page of our renderer (app://authwatch/...). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    // Node gives custom schemes an opaque origin ("null"), so compare scheme and host instead.
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && !u.username && !u.password;
  } catch {
    return false;
  }
}
