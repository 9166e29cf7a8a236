/** Error codes the v1 interface documents in its Errors table. */
export type ServerErrorCode =
  | 'missing_api_token'
  | 'invalid_api_token'
  | 'api_access_disabled'
  | 'api_plan_not_eligible'
  | 'insufficient_scope'
  | 'validation_error'
  | 'not_found'
  | 'internal_error'
  | 'score_unavailable';

/**
 * Codes the client itself assigns when the server gave none:
 * - `http_error`: an HTTP error status without an error envelope (also the spec's code for 429);
 * - `network_error`, `timeout`: no response (status 0);
 * - `malformed_response`: a 2xx answer that is not a JSON object with `data` (HTML page, invalid JSON, …);
 * - `token_unavailable`: the token provider failed or gave an unusable value;
 * - `invalid_base_url`: the base URL is not an http(s) URL;
 * - `invalid_request`: the call itself could not be built (bad parameters);
 * - `rate_limited`: the local rate budget would make the call wait longer than allowed;
 * - `aborted`: the caller cancelled the call through its AbortSignal.
 */
export type ClientErrorCode =
  | 'http_error'
  | 'network_error'
  | 'timeout'
  | 'malformed_response'
  | 'token_unavailable'
  | 'invalid_base_url'
  | 'invalid_request'
  | 'rate_limited'
  | 'aborted';

/**
 * The codes an ApiError is known to carry. ApiError.code is typed `string`, because servers may send
 * codes the spec does not list (kept as-is), and so that `code === 'not_found'` narrows cleanly.
 */
export type ApiErrorCode = ServerErrorCode | ClientErrorCode;

/** The fields of an ApiError, as plain data (what JSON.stringify and structured logs see). */
export interface ApiErrorFields {
  /** HTTP status, or 0 when no HTTP answer was received. */
  status: number;
  /** An ApiErrorCode, or a code of the server's that the spec does not list. */
  code: string;
  message: string;
  /** The X-Request-Id of the call (the server's echo when it sent one). */
  requestId: string;
  /** True when the same call may succeed later (429, or a transient failure of a GET/HEAD). */
  retryable: boolean;
  /** Extra detail the server attached (e.g. per-field validation errors), already scrubbed of the token. */
  details?: unknown;
  /** How long the server asked us to wait (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** HTTP method of the call, when known. */
  method?: string;
  /** URL path of the call (no query string), when known. */
  path?: string;
}

/**
 * The one error type the API client throws. It never holds the API token: messages and details are
 * scrubbed before construction, and there is no `cause` chain that could carry request headers.
 */
export class ApiError extends Error implements ApiErrorFields {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string;
  readonly retryable: boolean;
  readonly details?: unknown;
  readonly retryAfterMs?: number;
  readonly method?: string;
  readonly path?: string;

  constructor(fields: ApiErrorFields) {
    super(fields.message);
    this.status = fields.status;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.retryable = fields.retryable;
    if (fields.details !== undefined) this.details = fields.details;
    if (fields.retryAfterMs !== undefined) this.retryAfterMs = fields.retryAfterMs;
    if (fields.method !== undefined) this.method = fields.method;
    if (fields.path !== undefined) this.path = fields.path;
  }

  /** Plain-data form, so JSON.stringify(error) shows the fields rather than `{}`. */
  toJSON(): ApiErrorFields & { name: 'ApiError' } {
    const out: ApiErrorFields & { name: 'ApiError' } = {
      name: 'ApiError',
      status: this.status,
      code: this.code,
      message: this.message,
      requestId: this.requestId,
      retryable: this.retryable,
    };
    if (this.details !== undefined) out.details = this.details;
    if (this.retryAfterMs !== undefined) out.retryAfterMs = this.retryAfterMs;
    if (this.method !== undefined) out.method = this.method;
    if (this.path !== undefined) out.path = this.path;
    return out;
  }

  override toString(): string {
    const where = this.method && this.path ? ` (${this.method} ${this.path})` : '';
    return `ApiError ${this.code}${this.status ? ` [${this.status}]` : ''}: ${this.message}${where}`;
  }
}

/** True when `value` is an ApiError. */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
