import { fieldsOf, isRecord } from './shape.ts';

/** One issue of a refusal from the bridge: where (its path, as the bridge gave it) and what. */
export interface BridgeIssue {
  path: unknown;
  message: string;
}

/**
 * A refusal from the bridge (zod issues with paths) as errors on the fields they name: `fieldOf` says which
 * field an issue belongs to; an issue that names none, or a refusal without issues, is said on the form
 * ("Not saved: …"). With `code`, only a refusal of that code is read issue by issue.
 */
export function fieldErrorsFromBridge<F extends string>(
  error: unknown,
  fieldOf: (issue: BridgeIssue) => F | undefined,
  code?: string,
): Partial<Record<F | 'form', string>> {
  const e = fieldsOf(error);
  const errors: Partial<Record<F | 'form', string>> = {};
  if ((code === undefined || e.code === code) && Array.isArray(e.details)) {
    for (const issue of e.details.filter(isRecord)) {
      const message = typeof issue.message === 'string' ? issue.message : 'not valid';
      const field = fieldOf({ path: issue.path, message }) ?? 'form';
      errors[field] ??=
        field === 'form' ? `Not saved: ${message}` : message.charAt(0).toUpperCase() + message.slice(1);
    }
  }
  if (Object.keys(errors).length === 0)
    errors.form = `Not saved: ${typeof e.message === 'string' ? e.message : String(error)}`;
  return errors;
}
