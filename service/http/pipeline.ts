/**
 * The pipeline every v1 operation runs through, in this order (as a real API answers):
 *
 *   1. X-Api-Token present                     else 401 missing_api_token  (Authorization: Bearer is ignored)
 *   2. token known, not revoked, not expired   else 401 invalid_api_token
 *   3. account api_access on                   else 403 api_access_disabled
 *   4. plan protect or suite                   else 403 api_plan_not_eligible
 *   5. rate limit of the token                 else 429 http_error + Retry-After
 *   6. token has the operation's x-scope       else 403 insufficient_scope (message names the scope)
 *   7. x-owner-only → caller is team owner     else 403 team_owner_required
 *   8. path, query and body valid              else 422 validation_error with details [{field, message}]
 *      (a body holding invalid Unicode is refused before its schema is checked: ./wellFormedText.ts)
 *   9. handler                                 (no handler yet → 501 not_implemented)
 *
 * Public operations (no x-scope) skip 1–4 and 6–7 and are rate limited per client IP.
 * Rate-limit headers: step 5 counts the request against the token; a call refused before it reports the
 * current state of the bucket it would have used (the client IP for 401s, the token for 403s) without
 * counting it.
 */
import type { AuthContext, OperationHandlers, OperationRequest, ServiceContext } from './operation.ts';
import { ServiceError } from './serviceError.ts';
import type { FieldProblem } from './serviceError.ts';
import { errorEnvelope } from './envelope.ts';
import { MALFORMED_JSON, MAX_JSON_DEPTH, TOO_DEEP, UNSUPPORTED_MEDIA } from './requestBody.ts';
import { unicodeProblems } from './wellFormedText.ts';
import { checkAccount, resolveToken, touchToken } from '../auth/authenticate.ts';
import { requireOwner, requireScope } from '../auth/authorize.ts';
import type { RateLimiter, RateLimitState } from '../limits/rateLimiter.ts';
import { rateLimitHeaders } from '../limits/rateLimiter.ts';
import type { DocumentOperation } from '../openapi/document.ts';
import type { OperationValidators } from '../openapi/validators.ts';

/** A call as it arrived (values still raw). */
export interface IncomingCall {
  method: string;
  /** Path without the base prefix. */
  path: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  apiToken: string | undefined;
  requestId: string;
  ip: string;
}

/** What to send back, plus who made the call (for the audit log). */
export interface CallOutcome {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  auth: AuthContext | null;
  /** The unexpected error behind a 500, for the server log (never sent). */
  fault?: unknown;
}

/** What the pipeline needs besides the call. */
export interface PipelineDeps {
  ctx: ServiceContext;
  handlers: OperationHandlers;
  tokenLimiter: RateLimiter;
  ipLimiter: RateLimiter;
  validatorsOf(op: DocumentOperation): OperationValidators;
}

/** Runs one call of `op` through the checks and its handler; never throws. */
export async function runOperation(
  op: DocumentOperation,
  call: IncomingCall,
  deps: PipelineDeps,
): Promise<CallOutcome> {
  const { ctx } = deps;
  const now = ctx.clock();
  let auth: AuthContext | null = null;
  let limit: RateLimitState = deps.ipLimiter.peek(call.ip);
  try {
    if (op.scope === null) {
      limit = deps.ipLimiter.consume(call.ip);
      if (!limit.allowed) throw rateLimited();
    } else {
      const resolved = resolveToken(ctx.db, call.apiToken, now);
      auth = resolved.auth;
      limit = deps.tokenLimiter.peek(`token:${auth.tokenId}`);
      checkAccount(resolved.team);
      limit = deps.tokenLimiter.consume(`token:${auth.tokenId}`);
      if (!limit.allowed) throw rateLimited();
      touchToken(ctx.db, auth.tokenId, now);
      requireScope(auth, op.scope);
      requireOwner(auth, op.ownerOnly);
    }

    const validators = deps.validatorsOf(op);
    const params: Record<string, unknown> = { ...call.params };
    const query: Record<string, unknown> = { ...call.query };
    const body = op.requestBody ? call.body : undefined;
    const problems: FieldProblem[] = [...validators.path(params), ...validators.query(query)];
    if (body === MALFORMED_JSON) problems.push({ field: 'body', message: 'is not valid JSON' });
    else if (body === TOO_DEEP)
      problems.push({ field: 'body', message: `nests deeper than ${MAX_JSON_DEPTH} levels` });
    else if (body === UNSUPPORTED_MEDIA)
      problems.push({ field: 'body', message: 'must be sent as application/json' });
    else {
      const unicode = unicodeProblems(body);
      problems.push(...(unicode.length > 0 ? unicode : validators.body(body)));
    }
    if (problems.length > 0) {
      throw new ServiceError(422, 'validation_error', describeProblems(problems), problems);
    }

    const handler = deps.handlers[op.operationId];
    if (!handler) {
      throw new ServiceError(
        501,
        'not_implemented',
        `${op.operationId} is not implemented by this service yet.`,
      );
    }
    const req: OperationRequest = {
      operationId: op.operationId,
      method: call.method,
      path: call.path,
      params,
      query,
      body,
      auth,
      requestId: call.requestId,
      ip: call.ip,
    };
    const result = await handler(req, ctx);
    const status = result.status ?? 200;
    const headers = rateLimitHeaders(limit, now.getTime());
    if (status === 204) return { status, body: undefined, headers, auth };
    const envelope: Record<string, unknown> = { data: result.data ?? null };
    if (result.pagination) envelope.pagination = result.pagination;
    return { status, body: envelope, headers, auth };
  } catch (err) {
    const headers = rateLimitHeaders(limit, now.getTime());
    if (err instanceof ServiceError) {
      return {
        status: err.status,
        body: errorEnvelope(err.code, err.message, call.requestId, err.details),
        headers: { ...headers, ...err.headers },
        auth,
      };
    }
    return {
      status: 500,
      body: errorEnvelope('internal_error', 'An unexpected error occurred.', call.requestId),
      headers,
      auth,
      fault: err,
    };
  }
}

function rateLimited(): ServiceError {
  // Retry-After is added from the limiter state by the catch above (rateLimitHeaders on a refused state).
  return new ServiceError(
    429,
    'http_error',
    'Rate limit exceeded; retry after the time given in Retry-After.',
  );
}

function describeProblems(problems: FieldProblem[]): string {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return `Invalid request: ${first.field} ${first.message}${more}.`;
}
