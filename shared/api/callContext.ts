import { ApiError, type ApiErrorCode } from './apiError.ts';
import { isRetryable } from './retryPolicy.ts';
import { scrubDeep, scrubText } from './secretScrub.ts';

/** What every layer of one call knows about it; `secret` is only ever used to scrub text. */
export interface CallContext {
  method: string;
  /** URL path without the query string. */
  path: string;
  requestId: string;
  secret?: string;
}

/** Fields a layer supplies for an error; the rest comes from the call context. */
export interface ErrorSpec {
  status: number;
  code: ApiErrorCode | (string & {});
  message: string;
  requestId?: string;
  details?: unknown;
  retryAfterMs?: number;
  /** Defaults to what the retry policy says for this method, status and code. */
  retryable?: boolean;
}

const MAX_MESSAGE_CHARS = 1000;

/** Builds the call's ApiError with every string scrubbed of the secret and the message kept short. */
export function makeError(ctx: CallContext, spec: ErrorSpec): ApiError {
  const secret = ctx.secret;
  let message = scrubText(spec.message, secret);
  if (message.length > MAX_MESSAGE_CHARS) message = `${message.slice(0, MAX_MESSAGE_CHARS)}…`;
  const code = scrubText(String(spec.code), secret);
  return new ApiError({
    status: spec.status,
    code,
    message,
    requestId: scrubText(spec.requestId ?? ctx.requestId, secret),
    retryable: spec.retryable ?? isRetryable(ctx.method, { status: spec.status, code }),
    ...(spec.details !== undefined ? { details: scrubDeep(spec.details, secret) } : {}),
    ...(spec.retryAfterMs !== undefined ? { retryAfterMs: spec.retryAfterMs } : {}),
    method: ctx.method,
    path: scrubText(ctx.path, secret),
  });
}

/** The call's ApiError when its caller cancelled it through the AbortSignal. */
export function abortedError(ctx: CallContext): ApiError {
  return makeError(ctx, { status: 0, code: 'aborted', message: 'The call was cancelled.', retryable: false });
}
