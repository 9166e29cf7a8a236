/** How a report the parser refused is answered: 413 when it unpacks too large, else 422 naming the problem. */
import { ServiceError } from '../http/serviceError.ts';
import { ReportParseError } from '../ingest/index.ts';

/** The ServiceError for a parser refusal of a `what` (e.g. "DMARC aggregate report"); other errors pass through. */
export function reportRefusal(error: unknown, what: string): unknown {
  if (!(error instanceof ReportParseError)) return error;
  if (error.kind === 'too_large') {
    return new ServiceError(
      413,
      'payload_too_large',
      `The ${what} is too large once unpacked: ${error.message}`,
    );
  }
  return new ServiceError(422, 'validation_error', `The ${what} cannot be read: ${error.message}`, [
    { field: 'body', message: `${error.kind}: ${error.message}` },
  ]);
}
