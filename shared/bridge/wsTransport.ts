import type { BridgeErrorData } from './bridgeError.ts';
import type { BridgeEvent } from './events.ts';
import { CLOSE_UNAUTHORISED } from './hostCredential.ts';
import { CLOSE_REASONS, oversizeBytes, tooLargeMessage } from './messageLimit.ts';
import type { BridgeTransport } from './remote.ts';

type Reply = { ok: true; result: unknown } | { ok: false; error: BridgeErrorData };

/** How long a call waits for the host before it fails as unreachable. */
const CALL_TIMEOUT_MS = 60_000;

/** Whether the host answers, and why the last connection ended (null when it never did). */
export interface HostLinkStatus {
  connected: boolean;
  reason: string | null;
  /** The last close code (null when no connection ended yet). */
  code: number | null;
}

/** Why a socket closed, in words for the page. */
function closeReason(code: number, reason: string): string {
  const known = CLOSE_REASONS[code];
  if (known) return reason && code === 1008 ? `${known}: ${reason}` : known;
  return code === 1006 ? 'the connection to Authwatch dropped' : `the host closed the connection (${code})`;
}

/**
 * The browser host's transport: one WebSocket to /bridge of the page's own origin, calls matched to
 * replies by id, reconnecting with backoff when the host restarts or refuses a frame. A call whose socket
 * closes before its answer fails at once (it never waits for a reply that cannot come); a call too large
 * for the host fails before anything is sent. `onStatus` tells the page whether the host itself answers
 * (distinct from the service being offline) and why it stopped. `protocols` are offered on each connection.
 */
export function webSocketTransport(
  url: string,
  onStatus: (status: HostLinkStatus) => void = () => undefined,
  protocols: () => string[] = () => [],
): BridgeTransport {
  let socket: WebSocket | null = null;
  let nextId = 1;
  let retryMs = 250;
  let lastReason: string | null = null;
  let lastCode: number | null = null;
  type Call = {
    done: (reply: Reply) => void;
    timer: ReturnType<typeof setTimeout>;
    sentOn: WebSocket | null;
  };
  const pending = new Map<number, Call>();
  const queue: { id: number; text: string }[] = [];
  const listeners = new Set<(event: BridgeEvent) => void>();

  const finish = (id: number, reply: Reply) => {
    const call = pending.get(id);
    if (!call) return;
    clearTimeout(call.timer);
    pending.delete(id);
    call.done(reply);
  };
  const sendOn = (ws: WebSocket, id: number, text: string) => {
    const call = pending.get(id);
    if (!call) return;
    call.sentOn = ws;
    ws.send(text);
  };

  const connect = () => {
    const ws = new WebSocket(url, protocols());
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
      onStatus({ connected: true, reason: lastReason, code: lastCode });
      for (const { id, text } of queue.splice(0)) sendOn(ws, id, text);
    };
    ws.onmessage = (message) => {
      let data: { id?: number; reply?: Reply; event?: string; payload?: unknown };
      try {
        data = JSON.parse(String(message.data)) as typeof data;
      } catch {
        return;
      }
      if (typeof data.id === 'number' && data.reply) finish(data.id, data.reply);
      else if (typeof data.event === 'string') {
        for (const listener of listeners)
          listener({ event: data.event, payload: data.payload } as BridgeEvent);
      }
    };
    ws.onclose = (event) => {
      lastReason = closeReason(event.code, event.reason);
      lastCode = event.code;
      onStatus({ connected: false, reason: lastReason, code: lastCode });
      socket = null;
      // Calls sent on this socket get no answer now: say so instead of letting them wait.
      for (const [id, call] of pending)
        if (call.sentOn === ws)
          finish(id, {
            ok: false,
            error: {
              code: 'host_disconnected',
              message: `The connection to Authwatch closed before it answered (${lastReason}); it reconnects by itself. If this was a change, check whether it was made before trying again.`,
            },
          });
      // Without this run's secret no retry can succeed: the page says so and waits for the link.
      if (event.code === CLOSE_UNAUTHORISED) return;
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5_000);
    };
  };
  connect();

  return {
    invoke(method, args) {
      const id = nextId++;
      const text = JSON.stringify({ id, method, args });
      const over = oversizeBytes(text);
      if (over !== null)
        return Promise.resolve({ ok: false, error: { code: 'too_large', message: tooLargeMessage(over) } });
      return new Promise<Reply>((done) => {
        const timer = setTimeout(() => {
          const at = queue.findIndex((q) => q.id === id);
          if (at >= 0) queue.splice(at, 1);
          finish(id, {
            ok: false,
            error: { code: 'host_unreachable', message: 'Authwatch did not answer; is it still running?' },
          });
        }, CALL_TIMEOUT_MS);
        pending.set(id, { done, timer, sentOn: null });
        if (socket?.readyState === WebSocket.OPEN) sendOn(socket, id, text);
        else queue.push({ id, text });
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
