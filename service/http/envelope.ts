/** Rendering of the spec's envelopes. */
import type { FieldProblem } from './serviceError.ts';

/** `{"error": {code, message, request_id, details?}}`. */
export function errorEnvelope(
  code: string,
  message: string,
  requestId: string,
  details?: FieldProblem[],
): { error: Record<string, unknown> } {
  return {
    error: details
      ? { code, message, request_id: requestId, details }
      : { code, message, request_id: requestId },
  };
}
