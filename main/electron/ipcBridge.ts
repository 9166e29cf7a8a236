import type { BridgeMethods } from '../../shared/bridge/contract.ts';
import type { BridgeEvent } from '../../shared/bridge/events.ts';
import { plainDataProblem } from '../../shared/bridge/messageLimit.ts';
import { CALL_CHANNEL } from '../../shared/bridge/methodNames.ts';
import { createBridgeDispatcher, type BridgeReply } from '../../shared/bridge/serve.ts';
import { isAppUrl } from './appIdentity.ts';

/** The parts of an ipcMain.handle event we check. */
export interface IpcCallEvent {
  sender: unknown;
  senderFrame: { url: string; parent: unknown } | null;
}
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcCallEvent, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/**
 * Only our window's top frame showing our own renderer may call: a frame that navigated elsewhere, an
 * iframe, or another webContents is refused before the method name is even looked at.
 */
export function isTrustedCaller(event: IpcCallEvent, ourWebContents: unknown): boolean {
  const frame = event.senderFrame;
  return (
    ourWebContents !== null &&
    event.sender === ourWebContents &&
    frame !== null &&
    frame.parent === null &&
    isAppUrl(frame.url)
  );
}

const REFUSED: BridgeReply = {
  ok: false,
  error: { code: 'forbidden', message: 'This page may not use the Authwatch bridge.' },
};

const INTERNAL_ERROR: BridgeReply = {
  ok: false,
  error: { code: 'internal_error', message: 'Authwatch could not answer this call.' },
};

/**
 * Serves the bridge on CALL_CHANNEL: the caller is checked, then the shared dispatcher rejects unknown
 * methods and validates arguments and results with the contract's schemas. Returns the unregister function.
 */
export function serveBridgeOverIpc(options: {
  ipcMain: IpcMainLike;
  methods: BridgeMethods;
  webContents: () => unknown;
  onRefused?: (url: string | null) => void;
  onInternalError?: (method: string, message: string) => void;
}): () => void {
  const dispatch = createBridgeDispatcher(options.methods, (method, error) =>
    options.onInternalError?.(method, error.message),
  );
  options.ipcMain.handle(CALL_CHANNEL, async (event, method, args) => {
    // Whatever a page sends, it gets an answer: never an exception out of the handler.
    try {
      if (!isTrustedCaller(event, options.webContents())) {
        options.onRefused?.(event.senderFrame?.url ?? null);
        return REFUSED;
      }
      const problem = plainDataProblem([method, args]);
      if (problem) return { ok: false, error: problem } satisfies BridgeReply;
      return await dispatch(method, args);
    } catch (error) {
      options.onInternalError?.(
        typeof method === 'string' ? method.slice(0, 60) : '?',
        error instanceof Error ? error.message : 'unexpected error',
      );
      return INTERNAL_ERROR;
    }
  });
  return () => options.ipcMain.removeHandler(CALL_CHANNEL);
}

/** Sends bridge events to the window while it exists (a hidden window still gets them: it stays current). */
export function eventSender(
  webContents: () => { isDestroyed(): boolean; send(channel: string, payload: unknown): void } | null,
  channel: string,
): (event: BridgeEvent) => void {
  return (event) => {
    const wc = webContents();
    if (wc && !wc.isDestroyed()) wc.send(channel, event);
  };
}
