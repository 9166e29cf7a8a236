/**
 * Errors a handler throws to answer with the spec's error envelope
 * `{"error": {"code", "message", "request_id", "details"?}}`. Use only statuses the document lists for the
 * operation (the test harness flags any other): in handlers that is 404 not_found and 422 validation_error
 * (plus 503 score_unavailable for the security score).
 */

/** One per-field problem of a validation_error; field is `body.name`, `query.limit`, `path.domain_id`. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** An error that is rendered to the client as is (status, code, message, optional details). */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: FieldProblem[] | undefined;
  /** Extra response headers (e.g. Retry-After on 429). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    details?: FieldProblem[],
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

/** 404 not_found (missing, or belonging to another team: both look the same to the caller). */
export function notFound(what = 'Resource'): ServiceError {
  return new ServiceError(404, 'not_found', `${what} not found.`);
}

/** 422 validation_error with per-field details. */
export function validationError(details: FieldProblem[], message = 'The request is invalid.'): ServiceError {
  return new ServiceError(422, 'validation_error', message, details);
}
