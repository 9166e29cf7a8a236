import type { z } from 'zod';
import { BRIDGE_METHODS, isBridgeMethod, type BridgeErrorData, type BridgeMethods } from './contract.ts';
import { BRIDGE_EVENTS, type BridgeEvent, type BridgeEventName } from './events.ts';

/** What a call answers across the bridge: a result or a plain error, never a thrown value. */
export type BridgeReply = { ok: true; result: unknown } | { ok: false; error: BridgeErrorData };

/** Field problems without the values (a pasted token must never come back in an error). */
function issuesOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(arguments)',
    message: issue.message,
  }));
}

function errorData(error: unknown): BridgeErrorData {
  if (error && typeof error === 'object' && 'code' in error && 'message' in error) {
    const e = error as { code: unknown; message: unknown; details?: unknown };
    return {
      code: String(e.code),
      message: String(e.message),
      ...(e.details !== undefined ? { details: e.details } : {}),
    };
  }
  return { code: 'internal_error', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Serves the contract over any transport (Electron IPC, the host's WebSocket): rejects unknown methods,
 * validates arguments before and results after the call, and turns every failure into plain data.
 */
export function createBridgeDispatcher(
  methods: BridgeMethods,
  onInternalError?: (method: string, error: BridgeErrorData) => void,
): (method: unknown, args: unknown) => Promise<BridgeReply> {
  return async (method, rawArgs) => {
    if (!isBridgeMethod(method)) {
      return {
        ok: false,
        error: {
          code: 'unknown_method',
          // Not String(method): an object whose toString is not a function would throw here.
          message: `“${typeof method === 'string' ? method.slice(0, 60) : typeof method}” is not a bridge method.`,
        },
      };
    }
    const spec = BRIDGE_METHODS[method];
    const parsed = spec.args.safeParse(rawArgs);
    if (!parsed.success) {
      const details = issuesOf(parsed.error);
      return {
        ok: false,
        error: {
          code: 'invalid_arguments',
          message: `${method}: ${details[0]?.path}: ${details[0]?.message}`,
          details,
        },
      };
    }
    let result: unknown;
    try {
      result = await (methods[method] as (a: unknown) => Promise<unknown>)(parsed.data);
    } catch (error) {
      return { ok: false, error: errorData(error) };
    }
    const checked = spec.result.safeParse(result);
    if (!checked.success) {
      const error = {
        code: 'internal_error',
        message: `${method} answered with an unexpected shape`,
        details: issuesOf(checked.error).slice(0, 5),
      };
      onInternalError?.(method, error);
      return { ok: false, error };
    }
    return { ok: true, result: checked.data };
  };
}

/** Validates an event before it is sent; returns null (and drops it) when main built a wrong payload. */
export function checkedEvent<E extends BridgeEventName>(event: E, payload: unknown): BridgeEvent | null {
  const parsed = BRIDGE_EVENTS[event].safeParse(payload);
  return parsed.success ? ({ event, payload: parsed.data } as BridgeEvent) : null;
}
