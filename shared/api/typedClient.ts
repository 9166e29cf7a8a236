import createClient, { type FetchResponse, type ParamsOption, type RequestBodyOption } from 'openapi-fetch';
import { ApiError } from './apiError.ts';
import { normalizeBaseUrl } from './baseUrl.ts';
import { makeError, type CallContext } from './callContext.ts';
import { systemClock, type ApiClock } from './clock.ts';
import type { DecodedSuccess, Pagination } from './envelope.ts';
import type { ApiEventHandler } from './events.ts';
import { paginate, type PaginateOptions } from './paginate.ts';
import type { BudgetPriority, RateBudget } from './rateBudget.ts';
import { DEFAULT_RETRY, type RetryOptions } from './retryPolicy.ts';
import type { FetchLike } from './timeoutFetch.ts';
import { scrubText } from './secretScrub.ts';
import { resolveToken, type TokenProvider } from './tokenProvider.ts';
import { asApiError, createTransport } from './transport.ts';

export interface ApiClientOptions {
  /** As the user pasted it: https://host/api/v1, https://host/v1, https://host, … */
  baseUrl: string;
  /** The API token, or a function reading it (e.g. from the keychain) before every call. */
  token?: TokenProvider;
  /** Default: the global fetch. */
  fetch?: FetchLike;
  /** Deadline per HTTP attempt, body included (default 15 000 ms). */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /** The account's rate budget; each HTTP attempt takes one token from it. */
  budget?: RateBudget;
  /** Longest a call waits for the budget before failing with `rate_limited` (default 60 000 ms). */
  budgetMaxWaitMs?: number;
  /** Priority of calls that do not state one (default 'foreground'). */
  defaultPriority?: BudgetPriority;
  /** Larger response bodies are refused (default 64 MiB). */
  maxBodyBytes?: number;
  /** Replace time, sleep and randomness (tests). */
  clock?: Partial<ApiClock>;
  /** Log hook: attempts, retries, responses, errors. Never receives the token. */
  onEvent?: ApiEventHandler;
}

/** Per-call options beside the operation's `params` and `body`. */
export interface CallOptions {
  /** X-Request-Id to send; a fresh UUID when omitted. */
  requestId?: string;
  priority?: BudgetPriority;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A successful call: the envelope's `data` (and `pagination` for lists) plus call metadata. */
export interface ApiResult<Data, Page = Pagination> {
  data: Data;
  pagination?: Page;
  requestId: string;
  status: number;
  /** The whole decoded envelope, unknown fields included ({} for 204/HEAD). */
  envelope: Record<string, unknown>;
}

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** Paths of `Paths` that have an operation for `M`. */
export type PathsWith<Paths, M extends Method> = {
  [P in keyof Paths]: Paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof Paths] &
  string;

type OperationOf<Paths, P, M extends Method> = P extends keyof Paths
  ? Paths[P] extends { [K in M]: infer O }
    ? O
    : never
  : never;

type SuccessBody<O> =
  O extends Record<string | number, unknown>
    ? NonNullable<FetchResponse<O, object, 'application/json'>['data']>
    : unknown;

/** The type of the success envelope's `data` for an operation (null when it declares no body). */
export type DataOf<O> = [SuccessBody<O>] extends [never]
  ? null
  : SuccessBody<O> extends { data: infer D }
    ? D
    : unknown;
type PaginationOf<O> = SuccessBody<O> extends { pagination?: infer P } ? NonNullable<P> : Pagination;

/** What one call accepts: the operation's params and body (typed from the spec) and call options. */
export type CallInit<O> = ParamsOption<O> & RequestBodyOption<O> & CallOptions;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type InitArgs<I> = RequiredKeys<I> extends never ? [init?: I] : [init: I];

type CallMethod<Paths, M extends Method> = <P extends PathsWith<Paths, M>>(
  path: P,
  ...init: InitArgs<CallInit<OperationOf<Paths, P, M>>>
) => Promise<ApiResult<DataOf<OperationOf<Paths, P, M>>, PaginationOf<OperationOf<Paths, P, M>>>>;

/** GET paths whose `data` is an array: the lists `paginate` can walk. */
export type ListPaths<Paths> = {
  [P in PathsWith<Paths, 'get'>]: DataOf<OperationOf<Paths, P, 'get'>> extends readonly unknown[] ? P : never;
}[PathsWith<Paths, 'get'>];

type ItemOf<O> = DataOf<O> extends readonly (infer I)[] ? I : never;

/** The typed, resilient client over one API base URL and token. */
export interface ApiClient<Paths> {
  /** The normalized base URL requests go to (…/api/v1 or …/v1). */
  readonly baseUrl: string;
  get: CallMethod<Paths, 'get'>;
  post: CallMethod<Paths, 'post'>;
  put: CallMethod<Paths, 'put'>;
  patch: CallMethod<Paths, 'patch'>;
  delete: CallMethod<Paths, 'delete'>;
  /** Every item of a paginated list, fetched `limit` (default 100) at a time. */
  paginate<P extends ListPaths<Paths>>(
    path: P,
    ...args: [init?: CallInit<OperationOf<Paths, P, 'get'>>, options?: PaginateOptions]
  ): AsyncGenerator<ItemOf<OperationOf<Paths, P, 'get'>>, void, undefined>;
}

const HEADER_SAFE = /^[\x21-\x7e]{1,200}$/;

function invalidOption(message: string): ApiError {
  return new ApiError({ status: 0, code: 'invalid_request', message, requestId: '', retryable: false });
}

function checkPositive(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
    throw invalidOption(`${name} must be a positive number (got ${value}).`);
  }
}

function retryOptions(partial: Partial<RetryOptions> | undefined): RetryOptions {
  const retry = { ...DEFAULT_RETRY, ...partial };
  if (!Number.isInteger(retry.maxAttempts) || retry.maxAttempts < 1) {
    throw invalidOption(`retry.maxAttempts must be an integer of at least 1 (got ${retry.maxAttempts}).`);
  }
  for (const key of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    if (!(Number.isFinite(retry[key]) && retry[key] >= 0)) {
      throw invalidOption(`retry.${key} must be a non-negative number (got ${retry[key]}).`);
    }
  }
  return retry;
}

/** Loose runtime view of the call arguments (the types above are what callers see). */
interface LooseInit extends CallOptions {
  params?: {
    path?: Record<string, unknown>;
    query?: Record<string, unknown>;
    header?: Record<string, unknown>;
  };
  body?: unknown;
}

/** Takes X-Request-Id (any case) out of header params, so exactly one id is sent and reported. */
function splitRequestIdHeader(params: LooseInit['params']): {
  params: LooseInit['params'];
  headerRequestId?: string;
} {
  if (!params?.header) return { params };
  const header: Record<string, unknown> = {};
  let headerRequestId: string | undefined;
  for (const [name, value] of Object.entries(params.header)) {
    if (name.toLowerCase() === 'x-request-id') {
      if (typeof value === 'string' && value) headerRequestId = value;
    } else {
      header[name] = value;
    }
  }
  return { params: { ...params, header }, ...(headerRequestId ? { headerRequestId } : {}) };
}

/**
 * Creates the typed client for a `paths` type generated by openapi-typescript. Every failure of a call,
 * from a missing token to a garbled body, surfaces as an ApiError; nothing else is thrown. Throws
 * ApiError `invalid_base_url` / `invalid_request` at once for an unusable base URL or option.
 */
export function createTypedApiClient<Paths extends object>(options: ApiClientOptions): ApiClient<Paths> {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  checkPositive('timeoutMs', options.timeoutMs);
  checkPositive('maxBodyBytes', options.maxBodyBytes);
  if (options.budgetMaxWaitMs !== undefined && !(options.budgetMaxWaitMs >= 0)) {
    throw invalidOption(`budgetMaxWaitMs must be a non-negative number (got ${options.budgetMaxWaitMs}).`);
  }
  const clock: ApiClock = { ...systemClock, ...options.clock };
  const transport = createTransport({
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    clock,
    timeoutMs: options.timeoutMs ?? 15_000,
    retry: retryOptions(options.retry),
    maxBodyBytes: options.maxBodyBytes ?? 64 * 1024 * 1024,
    budgetMaxWaitMs: options.budgetMaxWaitMs ?? 60_000,
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  const openapi = createClient<Paths>({ baseUrl });
  const pathPrefix = new URL(baseUrl).pathname;

  async function call(method: Method, path: string, init: LooseInit = {}): Promise<ApiResult<unknown>> {
    // The spec also declares X-Request-Id as a header parameter; one given there counts as the call's id.
    const { params, headerRequestId } = splitRequestIdHeader(init.params);
    const ctx: CallContext = {
      method: method.toUpperCase(),
      path: pathPrefix + path,
      requestId: init.requestId ?? headerRequestId ?? globalThis.crypto.randomUUID(),
    };
    try {
      if (!HEADER_SAFE.test(ctx.requestId)) {
        const given = ctx.requestId;
        ctx.requestId = '';
        throw makeError(ctx, {
          status: 0,
          code: 'invalid_request',
          message: `The request id must be 1–200 visible ASCII characters (got ${JSON.stringify(given.slice(0, 50))}).`,
          retryable: false,
        });
      }
      const secret = await resolveToken(options.token, ctx);
      if (secret) ctx.secret = secret;
      const headers: Record<string, string> = { Accept: 'application/json', 'X-Request-Id': ctx.requestId };
      if (secret) headers['X-Api-Token'] = secret;

      let decoded: DecodedSuccess | undefined;
      const sendThroughTransport = async (request: Request): Promise<Response> => {
        ctx.path = scrubText(new URL(request.url).pathname, secret);
        decoded = await transport.send(request, ctx, {
          priority: init.priority ?? options.defaultPriority ?? 'foreground',
          ...(init.timeoutMs !== undefined ? { timeoutMs: init.timeoutMs } : {}),
          ...(init.signal ? { signal: init.signal } : {}),
        });
        // openapi-fetch only needs a status here; the body was already read and decoded.
        return new Response(null, { status: decoded.status });
      };
      // The spec's method table is what `Method` holds; openapi-fetch's own generics need a concrete path.
      const request = openapi.request as unknown as (
        m: string,
        p: string,
        i: Record<string, unknown>,
      ) => Promise<unknown>;
      await request(method, path, {
        ...(params ? { params } : {}),
        ...(init.body !== undefined ? { body: init.body } : {}),
        headers,
        parseAs: 'stream',
        fetch: sendThroughTransport,
      });
      if (!decoded) throw new Error('the transport returned no response');
      const envelope = decoded.envelope ?? {};
      return {
        data: decoded.envelope ? decoded.envelope.data : null,
        ...(envelope.pagination !== undefined ? { pagination: envelope.pagination as Pagination } : {}),
        requestId: decoded.requestId,
        status: decoded.status,
        envelope,
      };
    } catch (error) {
      throw asApiError(error, ctx);
    }
  }

  function walk(
    path: string,
    init: LooseInit = {},
    pageOptions: PaginateOptions = {},
  ): AsyncGenerator<unknown> {
    const firstPage = pageOptions.startPage ?? 1;
    return paginate(async (page, limit) => {
      // A caller's request id names the first page's call; every later page is a call of its own.
      const { requestId: _firstPageOnly, ...rest } = init;
      const pageInit: LooseInit =
        page === firstPage ? init : { ...rest, params: splitRequestIdHeader(init.params).params ?? {} };
      const query = { ...pageInit.params?.query, page, limit };
      const result = await call('get', path, { ...pageInit, params: { ...pageInit.params, query } });
      if (!Array.isArray(result.data)) {
        throw new ApiError({
          status: result.status,
          code: 'malformed_response',
          message: `The list at ${path} answered with "data" that is not an array.`,
          requestId: result.requestId,
          retryable: false,
          method: 'GET',
          path: pathPrefix + path,
        });
      }
      return {
        data: result.data,
        ...(result.pagination !== undefined ? { pagination: result.pagination } : {}),
        requestId: result.requestId,
      };
    }, pageOptions);
  }

  const client = {
    baseUrl,
    get: (path: string, init?: LooseInit) => call('get', path, init),
    post: (path: string, init?: LooseInit) => call('post', path, init),
    put: (path: string, init?: LooseInit) => call('put', path, init),
    patch: (path: string, init?: LooseInit) => call('patch', path, init),
    delete: (path: string, init?: LooseInit) => call('delete', path, init),
    paginate: walk,
  };
  return client as unknown as ApiClient<Paths>;
}
