import { BridgeError, type BridgeErrorData } from './bridgeError.ts';
import type { BridgeApi } from './contract.ts';
import type { BridgeEvent, BridgeEventName } from './events.ts';
import { EVENT_NAMES, METHOD_NAMES } from './methodNames.ts';

/** How a client reaches main: one call and one event stream. */
export interface BridgeTransport {
  invoke(
    method: string,
    args: unknown,
  ): Promise<{ ok: true; result: unknown } | { ok: false; error: BridgeErrorData }>;
  /** Every event main sends; returns the unsubscribe function. */
  subscribe(listener: (event: BridgeEvent) => void): () => void;
}

/**
 * Builds `window.authwatch` over a transport: exactly the contract's methods (each a frozen function), and
 * on(event, listener). Errors from main reject as BridgeError with their code and details.
 */
export function createBridgeClient(transport: BridgeTransport): BridgeApi {
  const api: Record<string, unknown> = {};
  for (const name of METHOD_NAMES) {
    api[name] = async (args?: unknown) => {
      const reply = await transport.invoke(name, args);
      if (reply.ok) return reply.result;
      throw new BridgeError(reply.error.code, reply.error.message, reply.error.details);
    };
  }
  api.on = (event: BridgeEventName, listener: (payload: unknown) => void) => {
    if (!(EVENT_NAMES as readonly string[]).includes(event))
      throw new BridgeError('unknown_event', `No event “${event}”.`);
    return transport.subscribe((e) => {
      if (e.event === event) listener(e.payload);
    });
  };
  return Object.freeze(api) as unknown as BridgeApi;
}
