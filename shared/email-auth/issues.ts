/**
 * Result shapes shared by every parser and validator in shared/email-auth.
 * Nothing here throws on bad input: problems come back as per-field issues so that a form can put each
 * message beside its field and the service can answer 422 with the same list.
 */

/** One problem tied to a field (a record tag such as `p`, or a form field such as `ip4[2]`). */
export interface FieldIssue {
  field: string;
  message: string;
}

/** Outcome of parsing or validating one record: `value` is set only when there are no errors. */
export interface ParseResult<T> {
  ok: boolean;
  value: T | null;
  errors: FieldIssue[];
  warnings: FieldIssue[];
}

/** Builds a ParseResult, keeping `value` only when no error was found. */
export function parseResult<T>(
  value: T | null,
  errors: FieldIssue[],
  warnings: FieldIssue[],
): ParseResult<T> {
  const ok = errors.length === 0 && value !== null;
  return { ok, value: ok ? value : null, errors, warnings };
}
