import type { BridgeApi } from '../../../shared/bridge/contract.ts';
import { createBridgeClient } from '../../../shared/bridge/remote.ts';
import { webSocketTransport } from '../../../shared/bridge/wsTransport.ts';

declare global {
  interface Window {
    /** The bridge: exposed by Electron's preload, or built here over the browser host's WebSocket. */
    authwatch?: BridgeApi;
  }
}

/** Which shell the renderer runs in: Electron (native notifications) or the browser host. */
export type ShellKind = 'electron' | 'browser';

/** Whether the browser host itself answers (the service may still be offline). */
export const hostLink = $state({ connected: true });

function connect(): { api: BridgeApi; shell: ShellKind } {
  if (window.authwatch) return { api: window.authwatch, shell: 'electron' };
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/bridge`;
  const api = createBridgeClient(webSocketTransport(url, (connected) => (hostLink.connected = connected)));
  return { api, shell: 'browser' };
}

const connection = connect();

/** window.authwatch, whichever shell provides it. */
export const api: BridgeApi = connection.api;
export const shell: ShellKind = connection.shell;
