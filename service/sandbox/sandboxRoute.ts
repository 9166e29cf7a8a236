/**
 * The contract of a sandbox control: a small route under `/_sandbox` that tests and demos use to shape the
 * world the service sees (accounts, tokens, DNS, threats, scans, reports). Controls answer with the same
 * envelopes as the API (`{data}` / `{error: {code, message, request_id, details?}}`) and throw ServiceError.
 * They exist only when the service is started with a sandbox key and require header X-Sandbox-Key.
 */
import type { OperationResult, ServiceContext } from '../http/operation.ts';

/** What a control receives; `body` has passed the route's JSON schema. */
export interface SandboxRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  requestId: string;
}

/** One sandbox control. */
export interface SandboxRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below `/_sandbox`, in Fastify syntax, e.g. `/dns/:fqdn/:record_type`. */
  path: string;
  /** JSON Schema (2020-12) of the body; a violation answers 422 validation_error. Omit when no body. */
  body?: Record<string, unknown>;
  /**
   * Upload controls: bodies of these content types reach the handler as a Buffer, unparsed (up to
   * RAW_BODY_LIMIT_BYTES), on this route only; any other content type arrives as a non-Buffer. No `body` schema.
   */
  rawBody?: readonly string[];
  handler: (req: SandboxRequest, ctx: ServiceContext) => OperationResult | Promise<OperationResult>;
}
