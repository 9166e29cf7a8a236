/**
 * Reading values whose type only a run-time look can tell — a form's body before the validator accepts it, an
 * error that crossed the bridge as a plain copy — by shape, so the compiler follows each check instead of
 * taking a cast's word for it.
 */

/** True for a plain object (not null, not a list). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields of `value` when it is an object, else none. */
export function fieldsOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
