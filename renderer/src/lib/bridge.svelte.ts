import type { BridgeApi } from '../../../shared/bridge/contract.ts';
import { createBridgeClient } from '../../../shared/bridge/remote.ts';
import { bridgeProtocols, CLOSE_UNAUTHORISED } from '../../../shared/bridge/hostCredential.ts';
import { webSocketTransport, type HostLinkStatus } from '../../../shared/bridge/wsTransport.ts';
import { hostKey } from './hostKey.ts';

declare global {
  interface Window {
    /** The bridge: exposed by Electron's preload, or built here over the browser host's WebSocket. */
    authwatch?: BridgeApi;
  }
}

/** Which shell the renderer runs in: Electron (native notifications) or the browser host. */
export type ShellKind = 'electron' | 'browser';

/**
 * Whether the browser host itself answers (the service may still be offline), why the connection last
 * ended, and whether it came back after a loss (the page says so for a while).
 */
export const hostLink = $state<{
  connected: boolean;
  reason: string | null;
  reconnected: boolean;
  /** The host refused this tab: it does not hold this run's secret (opened without the link). */
  locked: boolean;
}>({ connected: true, reason: null, reconnected: false, locked: false });

let calmTimer: ReturnType<typeof setTimeout> | undefined;
function onHostStatus(status: HostLinkStatus): void {
  hostLink.locked = status.code === CLOSE_UNAUTHORISED;
  hostLink.reconnected = status.connected && status.reason !== null;
  hostLink.connected = status.connected;
  hostLink.reason = status.reason;
  clearTimeout(calmTimer);
  if (hostLink.reconnected) calmTimer = setTimeout(() => (hostLink.reconnected = false), 8_000);
}

function connect(): { api: BridgeApi; shell: ShellKind } {
  if (window.authwatch) return { api: window.authwatch, shell: 'electron' };
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/bridge`;
  const api = createBridgeClient(webSocketTransport(url, onHostStatus, () => bridgeProtocols(hostKey)));
  return { api, shell: 'browser' };
}

const connection = connect();

/** window.authwatch, whichever shell provides it. */
export const api: BridgeApi = connection.api;
export const shell: ShellKind = connection.shell;
