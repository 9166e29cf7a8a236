import { ApiError } from './apiError.ts';
import { abortedError, makeError, type CallContext } from './callContext.ts';
import type { ApiClock } from './clock.ts';
import { decodeResponse, type DecodedSuccess } from './envelope.ts';
import { emitEvent, type ApiEventHandler } from './events.ts';
import { RateBudgetExceeded, type BudgetPriority, type RateBudget } from './rateBudget.ts';
import { decideRetry, type RetryOptions } from './retryPolicy.ts';
import { fetchWithTimeout, type FetchLike, type HttpAttempt } from './timeoutFetch.ts';

export interface TransportOptions {
  fetch: FetchLike;
  clock: ApiClock;
  timeoutMs: number;
  retry: RetryOptions;
  maxBodyBytes: number;
  /** When given, every HTTP attempt first takes one token from it. */
  budget?: RateBudget;
  /** Longest a call waits for the budget before failing with `rate_limited`. */
  budgetMaxWaitMs: number;
  onEvent?: ApiEventHandler;
}

/** Per-call choices. */
export interface SendOptions {
  priority?: BudgetPriority;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Sends one logical call: budget, attempts under a deadline, decoding, retries. */
export interface Transport {
  send(request: Request, ctx: CallContext, options?: SendOptions): Promise<DecodedSuccess>;
}

/** Any failure as the call's ApiError; anything unexpected becomes `invalid_request`. */
export function asApiError(error: unknown, ctx: CallContext): ApiError {
  if (error instanceof ApiError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return makeError(ctx, {
    status: 0,
    code: 'invalid_request',
    message: `The request could not be sent: ${reason}`,
    retryable: false,
  });
}

/** Builds the transport that the typed client hands to openapi-fetch as its `fetch`. */
export function createTransport(options: TransportOptions): Transport {
  const { clock, budget, onEvent } = options;

  async function takeBudget(ctx: CallContext, attempt: number, send: SendOptions): Promise<void> {
    if (!budget) return;
    const priority = send.priority ?? 'foreground';
    const waitMs = budget.waitTimeMs(1, { priority });
    if (waitMs > 0 && waitMs <= options.budgetMaxWaitMs) {
      emitEvent(onEvent, { type: 'budget_wait', ...eventBase(ctx, attempt), waitMs });
    }
    try {
      await budget.reserve(1, {
        priority,
        maxWaitMs: options.budgetMaxWaitMs,
        ...(send.signal ? { signal: send.signal } : {}),
      });
    } catch (error) {
      if (error instanceof RateBudgetExceeded) {
        throw makeError(ctx, {
          status: 0,
          code: 'rate_limited',
          message: `The request budget for this token is used up for the next ${Math.ceil(error.waitMs / 1000)} s.`,
          retryAfterMs: error.waitMs,
          retryable: true,
        });
      }
      if (send.signal?.aborted) throw abortedError(ctx);
      throw error;
    }
  }

  return {
    async send(request, ctx, send = {}) {
      const signal = send.signal ?? request.signal;
      const sendOpts: SendOptions = { ...send, signal };
      let body: ArrayBuffer | undefined;
      try {
        body = request.body ? await request.arrayBuffer() : undefined;
      } catch (error) {
        throw asApiError(error, ctx);
      }
      const attemptSpec: HttpAttempt = {
        url: request.url,
        method: request.method,
        headers: new Headers(request.headers),
        ...(body !== undefined ? { body } : {}),
      };
      const timeoutMs = send.timeoutMs ?? options.timeoutMs;

      for (let attempt = 1; ; attempt++) {
        let failure: ApiError;
        try {
          await takeBudget(ctx, attempt, sendOpts);
          emitEvent(onEvent, { type: 'attempt', ...eventBase(ctx, attempt) });
          const started = clock.now();
          const raw = await fetchWithTimeout(
            options.fetch,
            attemptSpec,
            { timeoutMs, signal, maxBodyBytes: options.maxBodyBytes },
            ctx,
          );
          emitEvent(onEvent, {
            type: 'response',
            ...eventBase(ctx, attempt),
            status: raw.status,
            durationMs: Math.max(0, clock.now() - started),
          });
          return decodeResponse(raw, ctx, clock.now());
        } catch (error) {
          failure = asApiError(error, ctx);
        }

        const decision = decideRetry(ctx.method, failure, attempt, options.retry, clock.random);
        if (failure.status === 429 && budget) {
          budget.penalize(failure.retryAfterMs ?? (decision.retry ? decision.delayMs : 0));
        }
        if (!decision.retry) {
          emitEvent(onEvent, {
            type: 'error',
            ...eventBase(ctx, attempt),
            status: failure.status,
            code: failure.code,
            retryable: failure.retryable,
            message: failure.message,
          });
          throw failure;
        }
        emitEvent(onEvent, {
          type: 'retry',
          ...eventBase(ctx, attempt),
          status: failure.status,
          code: failure.code,
          delayMs: decision.delayMs,
        });
        try {
          await clock.sleep(decision.delayMs, signal);
        } catch {
          throw abortedError(ctx);
        }
      }
    },
  };
}

function eventBase(ctx: CallContext, attempt: number) {
  return { method: ctx.method, path: ctx.path, requestId: ctx.requestId, attempt };
}
