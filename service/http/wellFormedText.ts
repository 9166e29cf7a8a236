/**
 * Request bodies must be valid Unicode. JSON lets a client escape half of a surrogate pair ("\ud800"), which
 * parses into a string no UTF-8 store or log can hold faithfully (SQLite would keep U+FFFD in its place), so
 * a lone surrogate anywhere in a body — value or key — is a 422 naming the field, as a schema violation is.
 */
import type { FieldProblem } from './serviceError.ts';

// With the `u` flag a paired surrogate is one code point outside \p{Cs}; only lone halves match.
const LONE_SURROGATE = /\p{Cs}/u;

/** Problems for every string of `value` (a parsed JSON body) that holds a lone surrogate. */
export function unicodeProblems(value: unknown, field = 'body'): FieldProblem[] {
  if (typeof value === 'string') {
    return LONE_SURROGATE.test(value) ? [{ field, message: 'must be valid Unicode (lone surrogate)' }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => unicodeProblems(item, `${field}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) =>
      LONE_SURROGATE.test(key)
        ? [{ field, message: 'must not have a key that is invalid Unicode (lone surrogate)' }]
        : unicodeProblems(item, `${field}.${key}`),
    );
  }
  return [];
}
