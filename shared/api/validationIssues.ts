import type { ApiError } from './apiError.ts';

/** One field the server rejected in a 422 validation_error. */
export interface ValidationIssue {
  /** Where the bad value was, e.g. body.name or query.limit ('' when the server did not say). */
  field: string;
  message: string;
}

/**
 * The per-field problems of a validation_error, read tolerantly from `details`: an array of
 * `{ field, message }` (our openapi.yaml's shape) or an object mapping field → message(s).
 * Returns [] for any other error or shape, so forms can always call it.
 */
export function validationIssues(error: Pick<ApiError, 'details'>): ValidationIssue[] {
  const { details } = error;
  const issues: ValidationIssue[] = [];
  if (Array.isArray(details)) {
    for (const item of details) {
      if (typeof item === 'string') issues.push({ field: '', message: item });
      else if (item && typeof item === 'object') {
        const { field, message } = item as Record<string, unknown>;
        if (typeof message === 'string')
          issues.push({ field: typeof field === 'string' ? field : '', message });
      }
    }
  } else if (details && typeof details === 'object') {
    for (const [field, value] of Object.entries(details)) {
      const messages = Array.isArray(value) ? value : [value];
      for (const message of messages) if (typeof message === 'string') issues.push({ field, message });
    }
  }
  return issues;
}
