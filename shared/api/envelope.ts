import { makeError, type CallContext } from './callContext.ts';
import { parseRetryAfter } from './retryAfter.ts';
import type { RawResponse } from './timeoutFetch.ts';

/** The list envelope's pagination object; fields are checked where used, since servers vary. */
export interface Pagination {
  page: number;
  limit: number;
  total: number;
  has_more: boolean;
  [extra: string]: unknown;
}

/** A decoded success: the envelope as sent (unknown fields kept), or null for 204/205/HEAD. */
export interface DecodedSuccess {
  status: number;
  requestId: string;
  headers: Headers;
  envelope: Record<string, unknown> | null;
}

type Parsed = { ok: true; value: unknown } | { ok: false; description: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses the body as JSON, or says in words what it was instead. */
function parseBody(raw: RawResponse): Parsed {
  const text = new TextDecoder('utf-8').decode(raw.body);
  if (text.trim() === '') return { ok: false, description: 'an empty body' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const type = raw.headers.get('content-type') ?? '';
    if (/html/i.test(type) || /^\s*</.test(text)) return { ok: false, description: 'an HTML page' };
    return { ok: false, description: 'a body that is not valid JSON' };
  }
}

function describeShape(value: unknown): string {
  if (Array.isArray(value)) return 'a JSON array instead of an object with "data"';
  if (!isPlainObject(value))
    return `a JSON ${value === null ? 'null' : typeof value} instead of an object with "data"`;
  return 'a JSON object without "data"';
}

function statusLine(raw: RawResponse): string {
  return raw.statusText ? `${raw.status} ${raw.statusText}` : String(raw.status);
}

/** Where a redirect points, without its query (which could hold anything). */
function redirectTarget(raw: RawResponse): string {
  const location = raw.headers.get('location');
  return location ? ` to ${location.split(/[?#]/)[0]}` : '';
}

function successRequestId(raw: RawResponse, body: Record<string, unknown>, ctx: CallContext): string {
  if (typeof body.request_id === 'string' && body.request_id) return body.request_id;
  return raw.headers.get('x-request-id') || ctx.requestId;
}

/**
 * Turns a read response into a success envelope or throws the call's ApiError. Successes must be JSON
 * objects holding `data` (unknown fields are kept); errors are read from the spec's `{ error: { code,
 * message, request_id } }` envelope when present, and described from status and body otherwise.
 */
export function decodeResponse(raw: RawResponse, ctx: CallContext, nowMs: number): DecodedSuccess {
  const { status } = raw;
  if (status >= 200 && status < 300) {
    if (status === 204 || status === 205 || ctx.method === 'HEAD') {
      return {
        status,
        requestId: raw.headers.get('x-request-id') || ctx.requestId,
        headers: raw.headers,
        envelope: null,
      };
    }
    const parsed = parseBody(raw);
    if (!parsed.ok || !isPlainObject(parsed.value) || !('data' in parsed.value)) {
      const what = parsed.ok ? describeShape(parsed.value) : parsed.description;
      throw makeError(ctx, {
        status,
        code: 'malformed_response',
        message: `The server answered HTTP ${statusLine(raw)} with ${what}; is the base URL the API's address?`,
        retryable: false,
      });
    }
    return {
      status,
      requestId: successRequestId(raw, parsed.value, ctx),
      headers: raw.headers,
      envelope: parsed.value,
    };
  }

  const retryAfterMs = parseRetryAfter(raw.headers.get('retry-after'), nowMs);
  const common = { status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  if (status >= 300 && status < 400) {
    throw makeError(ctx, {
      ...common,
      code: 'http_error',
      message: `The server redirected (HTTP ${statusLine(raw)})${redirectTarget(raw)}; use the final address as the base URL.`,
    });
  }
  const parsed = parseBody(raw);
  const error = parsed.ok && isPlainObject(parsed.value) ? parsed.value.error : undefined;
  if (isPlainObject(error)) {
    const code = typeof error.code === 'string' && error.code ? error.code : 'http_error';
    const message =
      typeof error.message === 'string' && error.message
        ? error.message
        : `The server answered HTTP ${statusLine(raw)} (${code}).`;
    const requestId = typeof error.request_id === 'string' && error.request_id ? error.request_id : undefined;
    throw makeError(ctx, {
      ...common,
      code,
      message,
      ...(requestId ? { requestId } : {}),
      ...(error.details !== undefined ? { details: error.details } : {}),
    });
  }
  if (typeof error === 'string' && error) {
    throw makeError(ctx, { ...common, code: 'http_error', message: error });
  }
  const what = parsed.ok ? 'a JSON body without an error envelope' : parsed.description;
  throw makeError(ctx, {
    ...common,
    code: 'http_error',
    message: `The server answered HTTP ${statusLine(raw)} with ${what}.`,
  });
}
