import type { BridgeErrorData } from './contract.ts';
import type { BridgeEvent } from './events.ts';
import type { BridgeTransport } from './remote.ts';

type Reply = { ok: true; result: unknown } | { ok: false; error: BridgeErrorData };

/** How long a call waits for the host before it fails as unreachable. */
const CALL_TIMEOUT_MS = 60_000;

/**
 * The browser host's transport: one WebSocket to /bridge of the page's own origin (the session cookie
 * authorises it), calls matched to replies by id, reconnecting with backoff when the host restarts.
 * `onStatus` tells the page whether the host itself answers (distinct from the service being offline).
 */
export function webSocketTransport(
  url: string,
  onStatus: (connected: boolean) => void = () => undefined,
): BridgeTransport {
  let socket: WebSocket | null = null;
  let nextId = 1;
  let retryMs = 250;
  const pending = new Map<number, { done: (reply: Reply) => void; timer: ReturnType<typeof setTimeout> }>();
  const queue: string[] = [];
  const listeners = new Set<(event: BridgeEvent) => void>();

  const connect = () => {
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
      onStatus(true);
      for (const text of queue.splice(0)) ws.send(text);
    };
    ws.onmessage = (message) => {
      let data: { id?: number; reply?: Reply; event?: string; payload?: unknown };
      try {
        data = JSON.parse(String(message.data)) as typeof data;
      } catch {
        return;
      }
      if (typeof data.id === 'number' && data.reply) {
        const call = pending.get(data.id);
        if (call) {
          clearTimeout(call.timer);
          pending.delete(data.id);
          call.done(data.reply);
        }
      } else if (typeof data.event === 'string') {
        for (const listener of listeners)
          listener({ event: data.event, payload: data.payload } as BridgeEvent);
      }
    };
    ws.onclose = () => {
      onStatus(false);
      socket = null;
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5_000);
    };
  };
  connect();

  return {
    invoke(method, args) {
      const id = nextId++;
      const text = JSON.stringify({ id, method, args });
      return new Promise<Reply>((done) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          done({
            ok: false,
            error: { code: 'host_unreachable', message: 'Authwatch did not answer; is it still running?' },
          });
        }, CALL_TIMEOUT_MS);
        pending.set(id, { done, timer });
        if (socket?.readyState === WebSocket.OPEN) socket.send(text);
        else queue.push(text);
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
