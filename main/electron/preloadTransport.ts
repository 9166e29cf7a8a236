import type { BridgeTransport } from '../../shared/bridge/remote.ts';
import type { BridgeEvent } from '../../shared/bridge/events.ts';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../shared/bridge/methodNames.ts';

/** The part of Electron's ipcRenderer the preload uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

/**
 * The bridge transport over Electron IPC. The page never sees ipcRenderer itself or the IPC event object
 * (which would hand it `sender`): only results and event payloads cross into its world.
 */
export function ipcTransport(ipc: IpcRendererLike): BridgeTransport {
  return {
    invoke: (method, args) => ipc.invoke(CALL_CHANNEL, method, args) as ReturnType<BridgeTransport['invoke']>,
    subscribe(listener) {
      const forward = (_event: unknown, payload: unknown) => listener(payload as BridgeEvent);
      ipc.on(EVENT_CHANNEL, forward);
      return () => ipc.removeListener(EVENT_CHANNEL, forward);
    },
  };
}
