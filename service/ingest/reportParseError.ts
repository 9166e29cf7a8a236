/** Why a report was rejected; lets the service map a rejection to a status and a message without parsing text. */
export type ReportParseErrorKind =
  | 'corrupt_container' // gzip/zip that cannot be unpacked (truncated, bad CRC, unknown method)
  | 'empty_container' // a zip that holds no entry of the expected kind
  | 'too_large' // unpacked content beyond the configured limit
  | 'malformed' // bytes that are not well-formed XML / JSON
  | 'missing_field' // a field the report format requires is absent or empty
  | 'invalid_value'; // a field is present but its value is not allowed

/** The one error the ingest parsers throw: a report that cannot be turned into a normalized report. */
export class ReportParseError extends Error {
  override readonly name = 'ReportParseError';
  readonly kind: ReportParseErrorKind;

  constructor(kind: ReportParseErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

/** Wraps anything a library threw into a ReportParseError, keeping the original as `cause`. */
export function asReportParseError(
  kind: ReportParseErrorKind,
  context: string,
  error: unknown,
): ReportParseError {
  if (error instanceof ReportParseError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new ReportParseError(kind, `${context}: ${detail}`, { cause: error });
}
