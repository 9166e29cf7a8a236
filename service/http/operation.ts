/**
 * The operation contract: every v1 operation of `shared/api/openapi.yaml` is served by one handler,
 * keyed by the document's `operationId`, in one of the group files `service/operations/*.ts`
 * (each exports `handlers: OperationHandlers`; service/operations/index.ts merges them).
 *
 * Before a handler runs, the pipeline (service/http/pipeline.ts) has already:
 *   authenticated the token, checked api access, plan, rate limit, the operation's `x-scope` and
 *   `x-owner-only`, and validated path/query parameters and the JSON body against the document
 *   (integers coerced, documented defaults applied — so `query.limit` is present when the document gives
 *   it a default). Handlers do not re-check any of that.
 *
 * A handler returns `{ data }` (rendered `{"data": …}`) or `{ data, pagination }` (the list envelope;
 * build it with `paginated()`) and optionally `status` (default 200; 201/202 when the document says so —
 * 204 sends no body). To fail, it throws `ServiceError`; anything else thrown becomes 500 internal_error
 * (logged, never shown). Handlers never see the API token itself. The audit log entry is written by the
 * registrar, not by handlers.
 *
 * Toolbox:
 *   requireAuth(req) → AuthContext                         ./requireAuth.ts
 *   new ServiceError(status, code, message, details?)       ./serviceError.ts
 *   notFound(what?) → ServiceError 404 not_found            ./serviceError.ts
 *   validationError([{field, message}], message?) → 422     ./serviceError.ts
 *   pageParams(query, defaultLimit = 25) → {page, limit, offset}     ./pagination.ts
 *   paginated(total, rows, {page, limit}) → {data, pagination}       ./pagination.ts
 *   dateWindow(query, clock, days = 30) → {start_date, end_date, fromTimestamp, toTimestamp}  ./dateWindow.ts
 *   optionalDateWindow(query) → open-ended bounds (audit log)        ./dateWindow.ts
 *   isoDate(date) → 'YYYY-MM-DD'                                     ./dateWindow.ts
 *   requireDomain(ctx, auth, domainId) → DomainRow, else 404         ../domains/domainRow.ts
 *   DOMAIN_SELECT, presentDomain(row)  (schema Domain)               ../domains/presentDomain.ts
 *   VISIBLE_DOMAIN_CONDITION (members' domain visibility)            ../domains/visibility.ts
 *   ctx.resolver(name, 'TXT' | 'MX' | …)  (sandbox zone, then system DNS)   ../dns/compositeResolver.ts
 *
 * Example:
 *   export const handlers: OperationHandlers = {
 *     getDomain: (req, ctx) => ({ data: presentDomain(requireDomain(ctx, req.auth, req.params.domain_id)) }),
 *   };
 */
import type { TlsWorld } from '../tls/tlsWorld.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import type { Pagination } from './pagination.ts';

/** Identity behind a valid token. `null` only on the public operations (health, scopes). */
export interface AuthContext {
  tokenId: number;
  tokenName: string;
  userId: number;
  teamId: number;
  /** The user is the team owner (what `x-owner-only` operations require). */
  isOwner: boolean;
  /** Scopes carried by the token (v1 and legacy ids). */
  scopes: readonly string[];
}

/** What a handler receives. params/query/body are already validated against the document. */
export interface OperationRequest<
  P = Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
  Q = Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
  B = any, // eslint-disable-line @typescript-eslint/no-explicit-any
> {
  operationId: string;
  method: string;
  /** Path without the base prefix, e.g. `/domains/12/hosted-spf`. */
  path: string;
  params: P;
  query: Q;
  /** Parsed JSON body (undefined when none was sent). */
  body: B;
  auth: AuthContext | null;
  /** UUID echoed in errors, in the X-Request-Id response header and in the audit log. */
  requestId: string;
  ip: string;
}

/** Settings fixed at start-up. */
export interface ServiceConfig {
  /** Reported by GET /health. */
  version: 'v1';
  rateLimitPerMinute: number;
  /** Applied by POST /auth/tokens when expires_in_days is omitted. */
  defaultTokenExpiryDays: number;
  /** Sandbox controls are mounted only when set. */
  sandboxKey: string | null;
}

/** Dependencies every handler may use; inject fakes in tests. */
export interface ServiceContext {
  db: ServiceDb;
  /** The only source of "now" (rate limit, expiry, date windows, timestamps). */
  clock: () => Date;
  /** DNS lookups (sandbox zone first, then the system resolver). */
  resolver: DnsResolve;
  config: ServiceConfig;
  /** The reference world's TLS servers (`--https-port`/`--smtp-port`), for the sandbox's TLS controls. */
  tlsWorld?: {
    tlsWorld: TlsWorld;
    address: string;
    /** The MX host (`--smtp-port`), when started: the sandbox can make it stop offering STARTTLS. */
    smtp?: { offerStarttls(on: boolean): void };
  };
}

/** What a handler returns. */
export interface OperationResult {
  data?: unknown;
  pagination?: Pagination;
  /** HTTP status; default 200. */
  status?: number;
}

/** One operation's implementation. */
export type OperationHandler = (
  req: OperationRequest,
  ctx: ServiceContext,
) => Promise<OperationResult> | OperationResult;

/** Handlers of one group file, keyed by operationId. */
export type OperationHandlers = Record<string, OperationHandler>;
