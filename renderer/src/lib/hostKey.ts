import { secretInFragment } from '../../../shared/bridge/hostCredential.ts';

const KEY = 'authwatch.bridge-secret';

/**
 * This run's bridge secret for the browser host. The link carries it in its fragment (never sent to any
 * server); the page moves it into sessionStorage — scoped to this origin and this tab, surviving reloads —
 * and clears the address bar before the router reads the hash. Imported first by main.ts for that reason.
 */
function takeHostKey(): string | null {
  if (typeof window === 'undefined' || window.authwatch) return null; // Electron: the preload's bridge
  const fromLink = secretInFragment(location.hash);
  if (fromLink) {
    sessionStorage.setItem(KEY, fromLink);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem(KEY);
}

/** The secret this tab holds, or null (opened without the link). */
export const hostKey = takeHostKey();
