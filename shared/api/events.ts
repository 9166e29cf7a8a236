/** Fields every client event carries; none of them can hold the API token. */
interface EventBase {
  method: string;
  /** URL path without the query string. */
  path: string;
  requestId: string;
  /** 1-based attempt number within the call. */
  attempt: number;
}

/** What the client reports to its `onEvent` hook, for logs and diagnostics. */
export type ApiEvent =
  | (EventBase & { type: 'attempt' })
  | (EventBase & { type: 'budget_wait'; waitMs: number })
  | (EventBase & { type: 'response'; status: number; durationMs: number })
  | (EventBase & { type: 'retry'; status: number; code: string; delayMs: number })
  | (EventBase & {
      type: 'error';
      status: number;
      code: string;
      retryable: boolean;
      /** The failure in words (the network layer's, for a proxy or a certificate that stopped it). */
      message?: string;
    });

export type ApiEventHandler = (event: ApiEvent) => void;

/** Calls the hook, never letting a faulty logger break the call. */
export function emitEvent(handler: ApiEventHandler | undefined, event: ApiEvent): void {
  if (!handler) return;
  try {
    handler(event);
  } catch {
    // A logging hook must not change the outcome of an API call.
  }
}
