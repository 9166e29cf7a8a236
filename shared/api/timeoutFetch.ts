import { ApiError } from './apiError.ts';
import { abortedError, makeError, type CallContext } from './callContext.ts';

/** The fetch the client is given: the global one, or a test double. */
export type FetchLike = (request: Request) => Promise<Response>;

/** One HTTP attempt, re-created for every retry (a Request body can be read only once). */
export interface HttpAttempt {
  url: string;
  method: string;
  headers: Headers;
  body?: ArrayBuffer;
}

/** A fully read response. */
export interface RawResponse {
  status: number;
  statusText: string;
  headers: Headers;
  body: Uint8Array;
}

export interface TimeoutOptions {
  /** Deadline for the whole attempt: connect, headers and the complete body. */
  timeoutMs: number;
  /** The caller's cancellation. */
  signal?: AbortSignal;
  /** Larger bodies are refused rather than buffered without bound. */
  maxBodyBytes: number;
}

/** Marks an abort as ours (the deadline), as opposed to the caller's. */
class DeadlineReached extends Error {}

/** Why fetch failed, in words a user can act on; undici hides the real reason in `cause`. */
function describeNetworkFailure(error: unknown): string {
  // The network layer (main/core/network) already said what happened and what to do about it.
  if (error instanceof Error && error.name === 'NetworkProblem') return error.message;
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const detail =
    cause && typeof cause.message === 'string' && cause.message
      ? cause.message
      : error instanceof Error
        ? error.message
        : String(error);
  const code = cause && typeof cause.code === 'string' ? `${cause.code}: ` : '';
  return `Could not reach the server (${code}${detail}).`;
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | 'too_large'> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return 'too_large';
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return 'too_large';
    }
    chunks.push(value);
  }
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * Sends one attempt and reads the whole body under one deadline, so a server that stalls mid-body times
 * out too. Redirects are not followed: a custom token header must not travel to another host.
 * Throws ApiError `timeout`, `aborted`, `network_error` or `malformed_response` (body too large).
 */
export async function fetchWithTimeout(
  fetchImpl: FetchLike,
  attempt: HttpAttempt,
  options: TimeoutOptions,
  ctx: CallContext,
): Promise<RawResponse> {
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) throw abortedError(ctx);
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new DeadlineReached()), options.timeoutMs);
  // Racing the abort keeps the deadline even with a fetch implementation that ignores its signal.
  const abandoned = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  abandoned.catch(() => undefined);
  try {
    const request = new Request(attempt.url, {
      method: attempt.method,
      headers: attempt.headers,
      body: attempt.body ?? null,
      signal: controller.signal,
      redirect: 'manual',
    });
    const response = await Promise.race([fetchImpl(request), abandoned]);
    const body = await Promise.race([readCapped(response, options.maxBodyBytes), abandoned]);
    if (body === 'too_large') {
      throw makeError(ctx, {
        status: response.status,
        code: 'malformed_response',
        message: `The response body is larger than ${options.maxBodyBytes} bytes; it was not read.`,
        retryable: false,
      });
    }
    return { status: response.status, statusText: response.statusText, headers: response.headers, body };
  } catch (error) {
    if (controller.signal.reason instanceof DeadlineReached) {
      throw makeError(ctx, {
        status: 0,
        code: 'timeout',
        message: `No complete answer within ${options.timeoutMs} ms.`,
      });
    }
    if (options.signal?.aborted) throw abortedError(ctx);
    if (error instanceof ApiError) throw error;
    throw makeError(ctx, { status: 0, code: 'network_error', message: describeNetworkFailure(error) });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}
